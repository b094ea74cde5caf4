import { describe, expect, it } from 'vitest';
import { dropSchema, openStore } from '../src/index.js';

const url = process.env.DATABASE_URL;

describe.runIf(Boolean(url))('migrations on PostgreSQL', () => {
  it('several processes migrating one database at once all succeed (advisory lock, named migration schema)', async () => {
    const schema = `mig_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const stores = await Promise.all(Array.from({ length: 5 }, () => openStore({ databaseUrl: url, schema })));
    try {
      await Promise.all(stores.map((s) => s.migrate()));
      const issued = await stores[0].keys.create({ network: 'mainnet', rps: 1, burst: 1, label: 'after race', expiresAt: null });
      expect((await stores[4].keys.list()).map((k) => k.id)).toContain(issued.record.id);
    } finally {
      for (const s of stores) await s.close();
      await dropSchema(url!, schema); // with the networks' chain schemas beside it
    }
  });
});
