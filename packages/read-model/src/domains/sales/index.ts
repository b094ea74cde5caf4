/**
 * The sales domain (`GET /api/v3/nft/sales`, `GET /api/v3/dns/activeAuctions`): getgems sales and auctions, Telemint
 * items and `.ton` DNS auctions, its tables (tables.ts), the derivation that fills them from the states of the
 * accounts each block touches (derive.ts) and the operations that read them with their NFT items (operations.ts).
 */
import { indexDomain } from '../../index-domain.js';
import { salesDerivation } from './derive.js';
import { salesOperations } from './operations.js';
import { salesMigrations, type SalesTables } from './tables.js';

export const salesDomain = indexDomain<SalesTables>()({
  name: 'sales',
  migrations: salesMigrations,
  // One derivation object serves every indexer: it keeps no state of its own between blocks.
  derivation: () => salesDerivation,
  operations: salesOperations,
});

export * from './derive.js';
export * from './operations.js';
export * from './tables.js';
