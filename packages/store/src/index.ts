export * from './store.js';
export * from './keys.js';
export * from './key-lookup.js';
export { PGliteDialect } from './pglite-dialect.js';
export { copyRows, type CopyType } from './copy.js';
export type { Database, NetworkName } from './schema.js';
export type * from './chain-schema.js';
export type { DdlRunner, DomainMigrations } from './chain-migrations.js';
