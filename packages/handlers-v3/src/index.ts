import type { RequestContext, V3Handlers } from '@tongate/stubs';
import { decodeOperations } from './decode.js';
import { emulateOperations } from './emulate/operations.js';
import { indexedOperations, type IndexedDeps } from './indexed/index.js';
import { legacyOperations, type LegacyDeps } from './legacy.js';
import { pendingOperations } from './pending/operations.js';
import type { PendingTraces } from './pending/service.js';
import { applyReplySettings, replySettings } from './reply-settings.js';

export interface V3Deps extends LegacyDeps {
  /** The network's indexed chain tables, which the indexed operations read (with their statement timeout). */
  index: IndexedDeps['db'];
  indexReadTimeoutMs?: number;
  /** The network's pending (emulated) traces, which the pending operations serve. */
  pending: PendingTraces;
}

/**
 * Every API v3 operation: the v2-style ones over the chain backend, /decode by TL-B scheme, the pending ones over
 * emulated traces, and the rest over the index. Typed as the full V3Handlers, so that a missing operation does not
 * compile.
 */
export function createV3Handlers(deps: V3Deps): V3Handlers {
  const operations: V3Handlers = {
    ...legacyOperations(deps),
    ...decodeOperations(),
    ...emulateOperations({ chain: deps.chain, index: deps.index, testnet: deps.chain.network === 'testnet' }),
    ...pendingOperations(deps.pending, deps.index, deps.chain.network === 'testnet'),
    ...indexedOperations({ db: deps.index, network: deps.chain.network, readTimeoutMs: deps.indexReadTimeoutMs }),
  };
  // X-No-Address-Book / X-No-Metadata apply to every reply that carries those objects, whichever module built it.
  for (const [name, operation] of Object.entries(operations) as [string, (input: { ctx?: RequestContext }) => Promise<unknown>][]) {
    (operations as unknown as Record<string, unknown>)[name] = async (input: { ctx?: RequestContext }) => {
      const settings = replySettings(input.ctx);
      return applyReplySettings(await operation(input), settings);
    };
  }
  return operations;
}

export { formatV3Entry, parseV3Stack } from './stack.js';
export { PendingTraces, type PendingTracesOptions } from './pending/service.js';
export { MemoryPendingStore, RedisPendingStore, PENDING_MAX_ENTRIES, type PendingEntry, type PendingStore } from './pending/store.js';
export type { LegacyDeps } from './legacy.js';
export { indexedOperations, type IndexedDeps } from './indexed/index.js';
export { blockPublisher, blockStreamBatch, pendingStreamItem } from './stream.js';
