import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Store } from '@tongate/store';
import { openIndexStore } from '@tongate/read-model';
import { indexedOperations } from '../src/indexed/index.js';

/** Before the indexer has written its first block, masterchainInfo says so (503), instead of failing with a 500. */
describe('an empty index', () => {
  let store: Store;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'tongate-empty-index-'));
    store = await openIndexStore({ dataDir: dir });
    await store.migrate();
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers masterchainInfo 503, and lists empty', async () => {
    const ops = indexedOperations({ db: store.chain('mainnet'), network: 'mainnet' });
    const ctx = { network: 'mainnet' as const, requestId: 't', startedAt: 0 };
    await expect(ops.getMasterchainInfo({ ctx } as never)).rejects.toMatchObject({ name: 'ApiError', status: 503 });
    const blocks = (await ops.getBlocks({ query: { limit: 10, offset: 0, sort: 'desc' }, ctx } as never)) as {
      status: number;
      body: { blocks: unknown[] };
    };
    expect(blocks.status).toBe(200);
    expect(blocks.body.blocks).toEqual([]);
  });
});

/** A query builder whose every query fails as PostgreSQL fails one cancelled by statement_timeout. */
function timingOutDb(): never {
  const timeout = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
  const builder: object = new Proxy(() => {}, {
    get: (_t, prop) => (typeof prop === 'string' && prop.startsWith('execute') ? () => Promise.reject(timeout) : builder),
    apply: () => builder,
  });
  return builder as never;
}

describe('a query past the statement timeout', () => {
  it('answers 504 naming the timeout, not 500', async () => {
    const ops = indexedOperations({ db: timingOutDb(), network: 'mainnet', readTimeoutMs: 5000 });
    const ctx = { network: 'mainnet' as const, requestId: 't', startedAt: 0 };
    await expect(ops.getTransactions({ query: { limit: 10, offset: 1_000_000_000, sort: 'desc' }, ctx } as never)).rejects.toMatchObject({
      name: 'ApiError',
      status: 504,
      message: 'the query took longer than 5000 ms: narrow the filters or lower the offset',
    });
  });
});
