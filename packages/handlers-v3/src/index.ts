import type { V3Handlers } from '@tongate/stubs';
import { decodeOperations } from './decode.js';
import { legacyOperations, type LegacyDeps } from './legacy.js';

/**
 * The API v3 operations built so far: the v2-style ones, over the chain backend. The indexed operations (blocks,
 * transactions, traces, jettons, …) need the indexer and are left out, so the front door answers them 501.
 */
export function createV3Handlers(deps: LegacyDeps): Partial<V3Handlers> {
  return { ...legacyOperations(deps), ...decodeOperations() };
}

export { formatV3Entry, parseV3Stack } from './stack.js';
export type { LegacyDeps } from './legacy.js';
