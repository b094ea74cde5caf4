/**
 * The read model: what the indexer writes and the v3 API reads, in one place both depend on. The indexer turns
 * chain objects into stored forms (rows.ts) and stores each transaction's wire JSON (wire.ts); the v3 handlers turn
 * decoded parameters into stored forms (params.ts), read the rows back, format them with the same wire.ts, and
 * attach the address book (address-book.ts). Neither side formats an address or a stored value on its own.
 * A v3 index domain (domains/) is declared here whole, tables to operations, and listed once in INDEX_DOMAINS; the
 * indexer and handlers-v3 run its parts through the seam of block.ts and index-domain.ts.
 */
export type { Network } from '@tongate/chain';
export * from './address.js';
export * from './address-book.js';
export * from './interfaces.js';
export * from './dns-trust.js';
export * from './params.js';
export * from './rows.js';
export * from './wire.js';
export * from './transactions-reply.js';
export * from './block.js';
export * from './index-domain.js';
export * from './domains/index.js';
