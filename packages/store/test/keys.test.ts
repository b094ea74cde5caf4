import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashKey, KEY_PREFIX, KeyLookup, type Store } from '../src/index.js';
import { migratedStore, storeBackends } from './backends.js';

const backends = storeBackends('t');

describe.each(backends)('key store on $name', (backend) => {
  const suite = migratedStore(backend);
  let store: Store;
  beforeAll(() => {
    store = suite.store;
  });

  it('creates a key that is stored only as a hash', async () => {
    const { key, record } = await store.keys.create({ network: 'mainnet', rps: 10, burst: 20, label: 'alpha' });
    expect(key.startsWith(KEY_PREFIX)).toBe(true);
    expect(key.length).toBeGreaterThan(40);
    expect(record).toMatchObject({ network: 'mainnet', rps: 10, burst: 20, label: 'alpha', revoked_at: null });
    const row = await store.db.selectFrom('api_keys').selectAll().where('id', '=', record.id).executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(hashKey(key));
    expect(row.key_hash).toBe(createHash('sha256').update(key, 'utf8').digest('hex'));
    // The SHA-256 test vector: the stored form is the plain hex digest.
    expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(JSON.stringify(row)).not.toContain(key);
  });

  it('rejects invalid plans', async () => {
    await expect(store.keys.create({ network: 'mainnet', rps: 0, burst: 1 })).rejects.toThrow(/rps/);
    await expect(store.keys.create({ network: 'devnet' as never, rps: 1, burst: 1 })).rejects.toThrow(/network/);
    await expect(store.keys.create({ network: 'mainnet', rps: 1, burst: 1, streamConnections: -2 })).rejects.toThrow(/streamConnections/);
    await expect(store.keys.create({ network: 'mainnet', rps: 1, burst: 1, streamAddresses: 1.5 })).rejects.toThrow(/streamAddresses/);
    // The database refuses what the repository would: a plan below -1 never lands.
    await expect(
      store.db
        .insertInto('api_keys')
        .values({ key_hash: 'x'.repeat(64), key_prefix: 'tgk_x', network: 'mainnet', rps: 1, burst: 1, label: '', stream_connections: -5 })
        .execute(),
    ).rejects.toThrow();
  });

  it("keeps a key's streaming plan (default, a number, no limit) and carries it over a rotation", async () => {
    const plain = await store.keys.create({ network: 'mainnet', rps: 1, burst: 1 });
    expect(plain.record).toMatchObject({ stream_connections: null, stream_addresses: null });
    const own = await store.keys.create({ network: 'testnet', rps: 1, burst: 1, streamConnections: 0, streamAddresses: -1 });
    expect(own.record).toMatchObject({ stream_connections: 0, stream_addresses: -1 });
    const rotated = await store.keys.rotate(own.record.id, 0);
    expect(rotated!.record).toMatchObject({ stream_connections: 0, stream_addresses: -1 });
    const lookup = new KeyLookup(store.keys);
    const verdict = await lookup.resolve(rotated!.key);
    expect(verdict.status === 'valid' && verdict.record).toMatchObject({ stream_connections: 0, stream_addresses: -1 });
  });

  it('resolves, revokes and bumps the version', async () => {
    const lookup = new KeyLookup(store.keys, { pollIntervalMs: 50 });
    await lookup.start();
    try {
      const { key, record } = await store.keys.create({ network: 'testnet', rps: 1, burst: 1 });
      // The synchronous answer exists only once the store has been asked, and agrees with it.
      expect(lookup.resolveCached(key)).toBeUndefined();
      expect((await lookup.resolve(key)).status).toBe('valid');
      expect(lookup.resolveCached(key)?.status).toBe('valid');
      expect((await lookup.resolve(key + 'x')).status).toBe('unknown');
      expect(lookup.resolveCached(key + 'x')?.status).toBe('unknown');
      const before = await store.keys.version();
      const revoked = await store.keys.revoke(record.id);
      expect(revoked?.revoked_at).toBeInstanceOf(Date);
      expect(await store.keys.version()).toBeGreaterThan(before);
      await new Promise((r) => setTimeout(r, 200));
      // The version change dropped the cache: the revoked key is not answered from memory.
      expect(lookup.resolveCached(key)).toBeUndefined();
      expect((await lookup.resolve(key)).status).toBe('unknown');
      expect(await store.keys.revoke(999_999)).toBeUndefined();
    } finally {
      lookup.stop();
    }
  });

  it('rotates: new key valid, old key valid only for the grace period', async () => {
    const lookup = new KeyLookup(store.keys, { pollIntervalMs: 50 });
    await lookup.start();
    try {
      const { key: oldKey, record } = await store.keys.create({ network: 'mainnet', rps: 5, burst: 5, label: 'rot' });
      const rotated = await store.keys.rotate(record.id, 1);
      expect(rotated).toBeDefined();
      expect(rotated!.key).not.toBe(oldKey);
      expect(rotated!.record).toMatchObject({ network: 'mainnet', rps: 5, burst: 5, label: 'rot' });
      expect(rotated!.old.replaced_by).toBe(rotated!.record.id);
      expect((await lookup.resolve(oldKey)).status).toBe('valid');
      expect((await lookup.resolve(rotated!.key)).status).toBe('valid');
      await new Promise((r) => setTimeout(r, 1200));
      expect((await lookup.resolve(oldKey)).status).toBe('unknown');
      expect((await lookup.resolve(rotated!.key)).status).toBe('valid');
    } finally {
      lookup.stop();
    }
  });

  it('lists keys without their hashes', async () => {
    const list = await store.keys.list();
    expect(list.length).toBeGreaterThanOrEqual(3);
    for (const k of list) expect(k).not.toHaveProperty('key_hash');
  });
});
