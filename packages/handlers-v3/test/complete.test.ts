// createV3Handlers answers every operation of the v3 contract: the type says so (V3Handlers, not Partial), and so
// does the object it builds, so that no operation is left to the front door's 501.
import type { ChainSource } from '@tongate/chain';
import type { ChainDatabase } from '@tongate/store';
import { v3Operations } from '@tongate/sdk';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createV3Handlers, type PendingTraces } from '../src/index.js';

describe('createV3Handlers', () => {
  it('has a handler for every operation of the v3 spec', () => {
    // Building the table reads nothing: the dependencies are only held by the handlers.
    const handlers = createV3Handlers({
      chain: { network: 'testnet' } as ChainSource,
      index: {} as Kysely<ChainDatabase>,
      pending: { network: 'testnet' } as PendingTraces,
    });
    const missing = Object.keys(v3Operations).filter((op) => typeof (handlers as unknown as Record<string, unknown>)[op] !== 'function');
    expect(missing).toEqual([]);
    expect(Object.keys(handlers).sort()).toEqual(Object.keys(v3Operations).sort());
  });
});
