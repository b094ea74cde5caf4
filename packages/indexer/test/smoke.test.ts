import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDevnet } from '@tongate/devnet';
import { openStore } from '@tongate/store';
import { expect, it } from 'vitest';
import { Indexer } from '../src/index.js';

it('smoke', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'idx-'));
  const devnet = await createDevnet({ network: 'testnet', blockIntervalMs: 0 });
  const store = await openStore({ dataDir: dir });
  await store.migrate();
  const seed = await devnet.seed();
  const indexer = new Indexer({ chain: devnet, db: store.chain('testnet') });
  await indexer.start();
  const t0 = Date.now();
  await indexer.waitFor(seed.lastBlock.seqno);
  console.log('indexed', seed.lastBlock.seqno, 'in', Date.now() - t0, indexer.status());
  const db = store.chain('testnet');
  for (const t of ['blocks', 'transactions', 'messages', 'message_contents', 'account_states', 'latest_account_states', 'shard_state'] as const) {
    const r = await db.selectFrom(t).select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    console.log(t, r);
  }
  console.log(await db.selectFrom('transactions').selectAll().limit(1).execute());
  await indexer.stop();
  await store.close();
  await devnet.close();
  rmSync(dir, { recursive: true, force: true });
  expect(indexer.status().transactions).toBeGreaterThan(0);
});
