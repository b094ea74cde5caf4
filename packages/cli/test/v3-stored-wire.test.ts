/**
 * The stored wire forms (transactions.wire, written by the indexer at ingest) give the same transactions replies as
 * the joins over messages, bodies and states: every account's history and every masterchain block's page of a
 * seeded devnet, on PGlite and PostgreSQL. Rows without a current wire form (older rows, an older form) are served
 * through the joins.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDevnet, type Devnet } from '@tongate/devnet';
import { backfillWireBatch, defaultDerivations, Indexer } from '@tongate/indexer';
import { openIndexStore, storedTransactionsReply, transactionsReply, WIRE_VERSION } from '@tongate/read-model';
import { dropSchema, type Store } from '@tongate/store';
import { SerializedJson } from '@tongate/stubs';
import { Address } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexedOperations } from '@tongate/handlers-v3';

const databaseUrl = process.env.DATABASE_URL;
const backends = [
  { name: 'pglite', url: undefined as string | undefined },
  ...(databaseUrl ? [{ name: 'postgres', url: databaseUrl }] : []),
];

describe.each(backends)('stored wire forms on $name', ({ name, url }) => {
  const schema = `stored_wire_${process.pid}_${name}`;
  let devnet: Devnet;
  let store: Store;
  let dir: string;
  const ctx = { network: 'testnet' as const, requestId: 't', startedAt: 0 };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'tongate-stored-wire-'));
    devnet = await createDevnet({ network: 'testnet', blockIntervalMs: 0 });
    await devnet.seed();
    const last = await devnet.produceBlock();
    store = await openIndexStore({ databaseUrl: url, dataDir: dir, schema: url ? schema : undefined });
    await store.migrate();
    const indexer = new Indexer({ chain: devnet, db: store.chain('testnet'), pollMs: 10, retryMs: 10, derivations: defaultDerivations() });
    await indexer.start();
    await indexer.waitFor(last.seqno, 120_000);
    await indexer.stop();
  }, 240_000);
  afterAll(async () => {
    await store?.close();
    await devnet?.close();
    if (url) await dropSchema(url, schema);
    rmSync(dir, { recursive: true, force: true });
  });

  const db = () => store.chain('testnet');
  const pageOf = (account: string) =>
    db()
      .selectFrom('transactions')
      .selectAll()
      .where('account', 'in', [account])
      .orderBy('lt', 'desc')
      .orderBy('account', 'desc')
      .limit(100);
  const order = { sort: 'desc' as const, byTime: false };

  it('every account history and every block page: the same reply as the joins, trace ids included', async () => {
    const accounts = (await db().selectFrom('transactions').select('account').distinct().execute()).map((r) => r.account);
    expect(accounts.length).toBeGreaterThan(20);
    let withTrace = 0;
    let withPeers = 0;
    for (const account of accounts) {
      const text = await storedTransactionsReply(db(), pageOf(account), order, true);
      expect(text, account).not.toBeNull();
      const stored = JSON.parse(text!) as {
        transactions: { trace_id: string | null; in_msg: unknown }[];
        address_book: Record<string, unknown>;
      };
      const joined = JSON.parse(JSON.stringify(await transactionsReply(db(), pageOf(account), order, true)));
      expect(stored, account).toEqual(joined);
      withTrace += stored.transactions.filter((t) => t.trace_id !== null).length;
      if (Object.keys(stored.address_book).length > 1) withPeers++;
    }
    expect(withTrace).toBeGreaterThan(0);
    expect(withPeers).toBeGreaterThan(0);
    const seqnos = (await db().selectFrom('transactions').select('mc_block_seqno').distinct().execute()).map((r) => r.mc_block_seqno);
    for (const seqno of seqnos) {
      const page = () =>
        db()
          .selectFrom('transactions')
          .selectAll()
          .where('mc_block_seqno', '=', seqno)
          .orderBy('lt', 'asc')
          .orderBy('account', 'asc')
          .limit(1000);
      const asc = { sort: 'asc' as const, byTime: false };
      expect(JSON.parse((await storedTransactionsReply(db(), page(), asc, false))!), `block ${seqno}`).toEqual(
        JSON.parse(JSON.stringify(await transactionsReply(db(), page(), asc, false))),
      );
    }
  }, 120_000);

  it('the operation replies with the stored text, and through the joins when a row has no current wire form', async () => {
    const ops = indexedOperations({ db: db(), network: 'testnet' });
    const [busiest] = await db()
      .selectFrom('transactions')
      .select('account')
      .groupBy('account')
      .orderBy(({ fn }) => fn.countAll(), 'desc')
      .limit(1)
      .execute();
    const query = { account: [Address.parse(busiest!.account)], limit: 100, offset: 0, sort: 'desc' } as never;
    const fast = (await ops.getTransactions({ query, ctx } as never)) as { body: unknown };
    expect(fast.body).toBeInstanceOf(SerializedJson);
    const expected = JSON.parse(JSON.stringify(fast.body)) as { transactions: { hash: string }[] };
    expect(expected.transactions.length).toBeGreaterThan(1);

    // A row from before the wire form (no wire) and one with an older form: both pages fall back to the joins.
    const [first, second] = expected.transactions;
    await db()
      .updateTable('transactions')
      .set({ wire: null, wire_peers: null, wire_version: null })
      .where('hash', '=', first!.hash)
      .execute();
    expect(await storedTransactionsReply(db(), pageOf(busiest!.account), order, true)).toBeNull();
    const slow = (await ops.getTransactions({ query, ctx } as never)) as { body: unknown };
    expect(slow.body).not.toBeInstanceOf(SerializedJson);
    expect(JSON.parse(JSON.stringify(slow.body))).toEqual(expected);

    await db()
      .updateTable('transactions')
      .set({ wire_version: WIRE_VERSION - 1 })
      .where('hash', '=', second!.hash)
      .execute();
    expect(await storedTransactionsReply(db(), pageOf(busiest!.account), order, true)).toBeNull();
    expect(JSON.parse(JSON.stringify(((await ops.getTransactions({ query, ctx } as never)) as { body: unknown }).body))).toEqual(expected);
    await db().updateTable('transactions').set({ wire_version: WIRE_VERSION }).where('hash', '=', second!.hash).execute();
  }, 60_000);

  it('the backfill stores, for rows written without one, the wire form the writer stores', async () => {
    const written = await db()
      .selectFrom('transactions')
      .select(['hash', 'wire', 'wire_peers', 'wire_version'])
      .where('wire', 'is not', null)
      .execute();
    expect(written.length).toBeGreaterThan(100);
    await db().updateTable('transactions').set({ wire: null, wire_peers: null, wire_version: null }).execute();
    let batches = 0;
    let updated = 0;
    for (let n = await backfillWireBatch(db(), 97); n > 0; n = await backfillWireBatch(db(), 97)) {
      updated += n;
      batches++;
    }
    expect(updated).toBeGreaterThanOrEqual(written.length);
    expect(batches).toBeGreaterThan(1);
    const after = new Map(
      (await db().selectFrom('transactions').select(['hash', 'wire', 'wire_peers', 'wire_version']).execute()).map((r) => [r.hash, r]),
    );
    for (const w of written) {
      const b = after.get(w.hash)!;
      expect(b.wire_version, w.hash).toBe(WIRE_VERSION);
      expect(JSON.parse(b.wire!), w.hash).toEqual(JSON.parse(w.wire!));
      expect(b.wire_peers, w.hash).toEqual(w.wire_peers);
    }
    expect(await backfillWireBatch(db())).toBe(0);
  }, 120_000);
});
