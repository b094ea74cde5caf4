import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { copyDataOf, copyStatement } from './copy.js';

/**
 * Kysely dialect for an embedded PGlite instance (kysely 0.28 ships none).
 * PGlite is one session, so the driver hands out a single connection guarded by a mutex: a transaction holds it
 * until commit/rollback and no other query can interleave with it.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}
  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
  }
  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}
  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const copy = copyDataOf(compiled.parameters);
    if (copy) {
      // PGlite reads COPY data from the blob of the query, under the file name /dev/blob.
      const result = await this.pglite.query<R>(copyStatement(compiled.sql).replace(/ from stdin /i, " from '/dev/blob' "), [], {
        blob: new Blob([copy.data]),
      });
      return { rows: [], numAffectedRows: result.affectedRows !== undefined ? BigInt(result.affectedRows) : undefined };
    }
    const result = await this.pglite.query<R>(compiled.sql, compiled.parameters as unknown[]);
    return {
      rows: result.rows,
      numAffectedRows: result.affectedRows !== undefined ? BigInt(result.affectedRows) : undefined,
    };
  }
  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    // PGlite materialises results anyway; stream them as one chunk.
    yield await this.executeQuery<R>(compiled);
  }
}

class PGliteDriver implements Driver {
  private readonly connection: PGliteConnection;
  private queue: Promise<void> = Promise.resolve();
  private releaseCurrent: (() => void) | undefined;

  constructor(private readonly pglite: PGlite) {
    this.connection = new PGliteConnection(pglite);
  }
  async init(): Promise<void> {
    await this.pglite.waitReady;
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.releaseCurrent = release;
    return this.connection;
  }
  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let sql = 'begin';
    if (settings.isolationLevel) sql = `start transaction isolation level ${settings.isolationLevel}`;
    if (settings.accessMode) sql += ` ${settings.accessMode}`;
    await connection.executeQuery(CompiledQuery.raw(sql));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(): Promise<void> {
    const release = this.releaseCurrent;
    this.releaseCurrent = undefined;
    release?.();
  }
  async destroy(): Promise<void> {
    await this.queue;
    if (!this.pglite.closed) await this.pglite.close();
  }
}
