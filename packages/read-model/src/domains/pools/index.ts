/**
 * The nominator pools domain (`GET /api/v3/nominatorPools`, its members, events and bookings): its tables
 * (tables.ts), the derivation that fills them from the pools' states and transactions (derive.ts) and the
 * operations that read them (operations.ts).
 */
import { indexDomain } from '../../index-domain.js';
import { poolsDerivation } from './derive.js';
import { poolOperations } from './operations.js';
import { poolMigrations, type PoolTables } from './tables.js';

export const poolsDomain = indexDomain<PoolTables>()({
  name: 'pools',
  migrations: poolMigrations,
  derivation: poolsDerivation,
  operations: poolOperations,
});

export * from './derive.js';
export * from './operations.js';
export type * from './tables.js';
