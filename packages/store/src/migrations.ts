import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';

const migrations: Record<string, Migration> = {
  '0001_api_keys': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('key_prefix', 'text', (c) => c.notNull())
        .addColumn('network', 'text', (c) => c.notNull().check(sql`network in ('mainnet', 'testnet')`))
        .addColumn('rps', 'integer', (c) => c.notNull().check(sql`rps > 0`))
        .addColumn('burst', 'integer', (c) => c.notNull().check(sql`burst > 0`))
        .addColumn('label', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('expires_at', 'timestamptz')
        .addColumn('revoked_at', 'timestamptz')
        .addColumn('replaced_by', 'integer', (c) => c.references('api_keys.id'))
        .execute();
      await db.schema
        .createTable('keys_version')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .execute();
      await db.insertInto('keys_version').values({ id: 1, version: 1 }).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('keys_version').execute();
      await db.schema.dropTable('api_keys').execute();
    },
  },
  '0002_api_keys_stream_plan': {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('api_keys')
        .addColumn('stream_connections', 'integer', (c) => c.check(sql`stream_connections >= -1`))
        .execute();
      await db.schema
        .alterTable('api_keys')
        .addColumn('stream_addresses', 'integer', (c) => c.check(sql`stream_addresses >= -1`))
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('api_keys').dropColumn('stream_addresses').execute();
      await db.schema.alterTable('api_keys').dropColumn('stream_connections').execute();
    },
  },
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
