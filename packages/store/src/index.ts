export * from './store.js';
export * from './keys.js';
export * from './key-lookup.js';
export { PGliteDialect } from './pglite-dialect.js';
export type { Database, NetworkName } from './schema.js';
export type * from './chain-schema.js';
export type * from './chain/tokens.js';
export type * from './chain/sales.js';
