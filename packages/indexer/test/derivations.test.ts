/**
 * Block derivations run with the block: `prepare` before the block's transaction, `write` inside it. A failing
 * `write` rolls the whole block back (chain rows and cursor too), and the block is retried, so a derived table never
 * misses a block nor holds one twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDevnet, type Devnet } from '@tongate/devnet';
import { sql, type ChainDatabase, type Store } from '@tongate/store';
import { openIndexStore } from '@tongate/read-model';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Indexer, readCursor, type BlockDerivation } from '../src/index.js';

let devnet: Devnet;
let store: Store;
let db: Kysely<ChainDatabase>;
const dataDir = mkdtempSync(path.join(tmpdir(), 'tongate-derive-'));

beforeAll(async () => {
  devnet = await createDevnet({ network: 'testnet', blockIntervalMs: 0 });
  await devnet.seed();
  store = await openIndexStore({ dataDir });
  await store.migrate();
  db = store.chain('testnet');
  // Through the query builder, so that the table lands in the network's schema like the chain tables.
  await db.schema
    .createTable('derive_probe')
    .addColumn('mc_seqno', 'integer', (c) => c.primaryKey())
    .addColumn('tx_count', 'integer', (c) => c.notNull())
    .addColumn('seen_in_trx', 'integer', (c) => c.notNull())
    .execute();
});

afterAll(async () => {
  await store?.close();
  await devnet?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface ProbeRow {
  mc_seqno: number;
  tx_count: number;
  seen_in_trx: number;
}
const probeTable = (trx: Kysely<ChainDatabase>) => (trx as unknown as Kysely<{ derive_probe: ProbeRow }>).insertInto('derive_probe');

it('writes derived rows in the block transaction, and a failed write retries the block whole', async () => {
  const head = (await devnet.getMasterchainInfo()).last.seqno;
  const failAt = Math.max(1, head - 1);
  let failed = false;
  const probe: BlockDerivation<number> = {
    name: 'probe',
    async prepare(batch) {
      return batch.transactions.length;
    },
    async write(trx, batch, txCount) {
      // The block's own rows are visible to the derivation inside the transaction.
      const seen = await trx
        .selectFrom('transactions')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('mc_block_seqno', '=', batch.mcSeqno)
        .executeTakeFirstOrThrow();
      await probeTable(trx).values({ mc_seqno: batch.mcSeqno, tx_count: txCount, seen_in_trx: seen.n }).execute();
      if (batch.mcSeqno === failAt && !failed) {
        failed = true;
        throw new Error('derivation failed once');
      }
    },
  };
  const indexer = new Indexer({ chain: devnet, db, pollMs: 10, retryMs: 10, derivations: [probe] });
  await indexer.start();
  await indexer.waitFor(head, 60_000);
  await indexer.stop();
  expect(failed).toBe(true);
  expect((await readCursor(db))!.mcSeqno).toBeGreaterThanOrEqual(head);
  const rows = (await db
    .selectFrom('derive_probe' as never)
    .selectAll()
    .orderBy('mc_seqno' as never)
    .execute()) as unknown as ProbeRow[];
  expect(rows.map((r) => r.mc_seqno)).toEqual(Array.from({ length: rows.length }, (_, i) => i));
  expect(rows.length).toBeGreaterThanOrEqual(head + 1);
  for (const r of rows) expect(r.seen_in_trx).toBe(r.tx_count);
  const txs = await db
    .selectFrom('transactions')
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  expect(rows.reduce((a, r) => a + r.tx_count, 0)).toBe(txs.n);
  expect(txs.n).toBeGreaterThan(0);
});
