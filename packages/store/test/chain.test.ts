/**
 * The chain tables: one schema per network (mainnet rows never visible from testnet), and one writer per network
 * on PostgreSQL (advisory lock).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, openStore, type Store } from '../src/index.js';

const databaseUrl = process.env.DATABASE_URL;
const runId = `c_${process.pid}_${Date.now().toString(36)}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'tongate-chain-'));
const backends = [
  { name: 'pglite', open: () => openStore({ dataDir }), cleanup: async () => rmSync(dataDir, { recursive: true, force: true }) },
  ...(databaseUrl ? [{ name: 'postgres', open: () => openStore({ databaseUrl, schema: runId }), cleanup: () => dropSchema(databaseUrl, runId) }] : []),
];

describe.each(backends)('chain tables on $name', (backend) => {
  let store: Store;
  beforeAll(async () => {
    store = await backend.open();
    await store.migrate();
    await store.migrate(); // idempotent
  });
  afterAll(async () => {
    await store.close();
    await backend.cleanup();
  });

  it('keeps each network in its own schema', async () => {
    expect(store.chainSchema('mainnet')).not.toBe(store.chainSchema('testnet'));
    await store.chain('mainnet').insertInto('message_contents').values({ hash: 'h', body: 'mainnet body' }).execute();
    expect(await store.chain('testnet').selectFrom('message_contents').selectAll().execute()).toEqual([]);
    expect(await store.chain('mainnet').selectFrom('message_contents').selectAll().execute()).toEqual([{ hash: 'h', body: 'mainnet body' }]);
  });

  it('grants one writer per network', async () => {
    const first = await store.tryLockChainWriter('mainnet');
    expect(first).not.toBeNull();
    const other = await store.tryLockChainWriter('testnet');
    expect(other).not.toBeNull();
    if (store.kind === 'postgres') {
      expect(await store.tryLockChainWriter('mainnet')).toBeNull();
      await first!.release();
      const again = await store.tryLockChainWriter('mainnet');
      expect(again).not.toBeNull();
      await again!.release();
    } else {
      await first!.release();
    }
    await other!.release();
  });
});
