/**
 * The chain tables: one schema per network (mainnet rows never visible from testnet), and one writer per network
 * on PostgreSQL (advisory lock).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, isQueryTimeout, openStore, sql, type Store } from '../src/index.js';
import { migratedStore, storeBackends } from './backends.js';

describe.each(storeBackends('c'))('chain tables on $name', (backend) => {
  const suite = migratedStore(backend);
  let store: Store;
  beforeAll(() => {
    store = suite.store;
  });

  it('keeps each network in its own schema', async () => {
    expect(store.chainSchema('mainnet')).not.toBe(store.chainSchema('testnet'));
    await store.chain('mainnet').insertInto('message_contents').values({ hash: 'h', body: 'mainnet body' }).execute();
    expect(await store.chain('testnet').selectFrom('message_contents').selectAll().execute()).toEqual([]);
    expect(await store.chain('mainnet').selectFrom('message_contents').selectAll().execute()).toEqual([
      { hash: 'h', body: 'mainnet body' },
    ]);
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

describe.runIf(Boolean(process.env.DATABASE_URL))('chain reads on PostgreSQL', () => {
  it('end at the read timeout; the writer is not limited', async () => {
    const schema = `t_reader_${Date.now().toString(36)}`;
    const store = await openStore({ databaseUrl: process.env.DATABASE_URL, schema, readTimeoutMs: 100 });
    try {
      const slow = sql`select pg_sleep(0.5)`;
      const err = await slow.execute(store.chainReader('mainnet')).catch((e: unknown) => e);
      expect(isQueryTimeout(err)).toBe(true);
      await expect(slow.execute(store.chain('mainnet'))).resolves.toBeDefined();
      expect(store.readTimeoutMs).toBe(100);
    } finally {
      await store.close();
      await dropSchema(process.env.DATABASE_URL!, schema);
    }
  });
});
