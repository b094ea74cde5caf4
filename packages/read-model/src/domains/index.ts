import { openStore, type Store, type StoreOptions } from '@tongate/store';
import type { AnyIndexDomain, OperationsOf } from '../index-domain.js';
import { dnsDomain } from './dns.js';
import { salesDomain } from './sales/index.js';
import { tokensDomain } from './tokens/index.js';
import { tracesDomain } from './traces/index.js';
import { multisigDomain } from './multisig.js';
import { poolsDomain } from './pools/index.js';
import { validatorsDomain } from './validators/index.js';
import { vestingDomain } from './vesting.js';

/**
 * The v3 index domains declared whole in one module each (`domains/<domain>.ts`, or `domains/<domain>/index.ts`
 * over its folder: tables and migrations, derivation, operations). This list is the one place a domain is registered: the store migrates their tables
 * (`openIndexStore`), the indexer runs their derivations (`defaultDerivations`), and handlers-v3
 * serves their operations (`indexedOperations`). Order matters only to the derivations: a later one may read an
 * earlier one's rows.
 */
export const INDEX_DOMAINS = [
  tracesDomain,
  tokensDomain,
  salesDomain,
  dnsDomain,
  vestingDomain,
  multisigDomain,
  validatorsDomain,
  poolsDomain,
] as const;

/** The v3 operations the registered domains serve, which handlers-v3 adds to its own. */
export type IndexDomainOperations = OperationsOf<typeof INDEX_DOMAINS>;

/** The store with the chain tables of `domains` (the registered ones unless told otherwise) migrated beside its own. */
export function openIndexStore(options: StoreOptions, domains: readonly AnyIndexDomain[] = INDEX_DOMAINS): Promise<Store> {
  return openStore({ ...options, chainMigrations: [...(options.chainMigrations ?? []), ...domains.map((domain) => domain.migrations)] });
}

export * from './dns.js';
export * from './multisig.js';
export * from './pools/index.js';
export * from './sales/index.js';
export * from './tokens/index.js';
export * from './traces/index.js';
export * from './validators/index.js';
export * from './vesting.js';
