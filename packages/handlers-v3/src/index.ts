import type { V3Handlers } from '@tongate/stubs';
import { decodeOperations } from './decode.js';
import { indexedOperations, type IndexedDeps } from './indexed/index.js';
import { legacyOperations, type LegacyDeps } from './legacy.js';

export interface V3Deps extends LegacyDeps {
  /** The network's indexed chain tables (and their read timeout); without them the indexed operations are left out (501). */
  index?: IndexedDeps['db'];
  indexReadTimeoutMs?: number;
}

/**
 * The API v3 operations built so far: the v2-style ones over the chain backend, and the blockchain-data ones
 * (blocks, transactions, messages, account and wallet states, address book, top accounts, jettons, NFTs, metadata)
 * over the index. /decode decodes bodies by TL-B scheme. Traces, actions, DNS and the rest are not built yet, so the
 * front door answers them 501.
 */
export function createV3Handlers(deps: V3Deps): Partial<V3Handlers> {
  return {
    ...legacyOperations(deps),
    ...decodeOperations(),
    ...(deps.index ? indexedOperations({ db: deps.index, network: deps.chain.network, readTimeoutMs: deps.indexReadTimeoutMs }) : {}),
  };
}

export { formatV3Entry, parseV3Stack } from './stack.js';
export type { LegacyDeps } from './legacy.js';
export { readNftItems, tokenMetadata } from './indexed/index.js';
