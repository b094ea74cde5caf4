/**
 * The traces derivation over a seeded devnet: every transaction joins exactly one trace, each seeded external
 * message's trace holds every transaction it caused and is complete, and complete traces are classified (the
 * seed's TON, jetton and NFT transfers come out as their actions). Traces of an older classifier version are
 * classified again as blocks go by. On PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLASSIFIER_VERSION } from '@tongate/actions';
import { createDevnet, type Devnet, type SeedSummary } from '@tongate/devnet';
import { dropSchema, type Store } from '@tongate/store';
import { openIndexStore, traceDerivation, withDomainTables, type TracesDb, type TracesTables } from '@tongate/read-model';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Indexer, collectMcBlock, prepareDerivations, writeMcBlock, type McBlockBatch } from '../src/index.js';
import { readShardTops } from '../src/writer.js';

const databaseUrl = process.env.DATABASE_URL;
const backends = [
  { name: 'pglite', url: undefined as string | undefined },
  ...(databaseUrl ? [{ name: 'postgres', url: databaseUrl }] : []),
];

let devnet: Devnet;
let seed: SeedSummary;
const dir = mkdtempSync(path.join(tmpdir(), 'tongate-traces-'));

beforeAll(async () => {
  // One basechain shard, so that every seeded trace lies in one masterchain block, which the cross-block test below
  // cuts in two; test/shards.test.ts indexes traces that cross shards and blocks on the chain itself.
  devnet = await createDevnet({ network: 'testnet', blockIntervalMs: 0, shards: 1 });
  seed = await devnet.seed();
}, 120_000);

afterAll(async () => {
  await devnet?.close();
  rmSync(dir, { recursive: true, force: true });
});

const raw = (a: { workChain: number; hash: Buffer }) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;

describe.each(backends)('traces on $name', ({ name, url }) => {
  const schema = `traces_${process.pid}_${name}`;
  let store: Store;
  let db: Kysely<TracesDb>;

  beforeAll(async () => {
    store = await openIndexStore({ databaseUrl: url, dataDir: path.join(dir, name), schema: url ? schema : undefined });
    await store.migrate();
    db = withDomainTables<TracesTables>(store.chain('testnet'));
    const indexer = new Indexer({ chain: devnet, db, pollMs: 10, retryMs: 10, derivations: [traceDerivation()] });
    await indexer.start();
    await indexer.waitFor((await devnet.getMasterchainInfo()).last.seqno, 60_000);
    await indexer.stop();
  }, 120_000);

  afterAll(async () => {
    await store?.close();
    if (url) await dropSchema(url, schema);
  });

  it('puts every transaction in exactly one trace, whose tree is connected', async () => {
    const txs = await db.selectFrom('transactions').select('hash').execute();
    const members = await db.selectFrom('trace_transactions').select(['tx_hash', 'trace_id']).execute();
    expect(members.map((m) => m.tx_hash).sort()).toEqual(txs.map((t) => t.hash).sort());
    // A non-root transaction's inbound message was sent by a transaction of the same trace.
    const traceOf = new Map(members.map((m) => [m.tx_hash, m.trace_id]));
    const inbound = await db.selectFrom('messages').select(['tx_hash', 'msg_hash', 'source']).where('direction', '=', 'in').execute();
    const senders = new Map(
      (await db.selectFrom('messages').select(['tx_hash', 'msg_hash']).where('direction', '=', 'out').execute()).map((m) => [
        m.msg_hash,
        m.tx_hash,
      ]),
    );
    for (const m of inbound) {
      if (m.source === null) expect(traceOf.get(m.tx_hash)).toBe(m.tx_hash);
      else expect(traceOf.get(m.tx_hash)).toBe(traceOf.get(senders.get(m.msg_hash)!));
    }
  });

  it('assembles each seeded external message into one complete trace with its counts', async () => {
    for (const hash of seed.messages) {
      const trace = await db
        .selectFrom('traces')
        .selectAll()
        .where('external_hash', '=', hash.toString('base64'))
        .executeTakeFirstOrThrow();
      const members = await db.selectFrom('trace_transactions').selectAll().where('trace_id', '=', trace.trace_id).orderBy('lt').execute();
      expect(trace.state).toBe('complete');
      expect(trace.pending_messages).toBe(0);
      expect(trace.transactions).toBe(members.length);
      expect(trace.messages).toBe(members.length - 1);
      expect(members[0]!.tx_hash).toBe(trace.trace_id);
      expect(trace.start_lt).toBe(members[0]!.lt);
      expect(trace.end_lt).toBe(members.at(-1)!.lt);
      expect(trace.classification_state).toBe('ok');
      expect(trace.classifier_version).toBe(CLASSIFIER_VERSION);
    }
  });

  it('classifies the seed into ton, jetton and NFT actions', async () => {
    const actions = await db.selectFrom('actions').selectAll().execute();
    const types = new Set(actions.map((a) => a.type));
    for (const t of ['ton_transfer', 'jetton_transfer', 'jetton_burn', 'nft_transfer']) expect(types, t).toContain(t);
    const jetton = actions.find((a) => a.type === 'jetton_transfer')!;
    const data = jetton.data as Record<string, unknown>;
    expect(data.asset).toBe(raw(seed.jetton.minter));
    expect(String(data.amount)).toBe(seed.jetton.transferred.toString());
    const nft = actions.find((a) => a.type === 'nft_transfer')!.data as Record<string, unknown>;
    expect(nft.asset).toBe(raw(seed.nft.collection));
    expect(nft.asset_secondary).toBe(raw(seed.nft.item));
    expect(nft.destination).toBe(raw(seed.nft.ownerAfterTransfer));
    // every action's accounts are indexed for /actions?account=
    const accounts = await db.selectFrom('action_accounts').select(['trace_id', 'action_id']).execute();
    for (const a of actions) expect(accounts.some((r) => r.action_id === a.action_id && r.trace_id === a.trace_id)).toBe(true);
  });

  it('re-classifies traces of an older classifier version as blocks go by', async () => {
    const before = await db
      .selectFrom('actions')
      .select(['trace_id', 'action_id', 'type'])
      .orderBy('trace_id')
      .orderBy('action_id')
      .execute();
    await db.deleteFrom('action_accounts').execute();
    await db.deleteFrom('actions').execute();
    await db
      .updateTable('traces')
      .set({ classifier_version: CLASSIFIER_VERSION - 1, classification_state: 'unclassified' })
      .where('state', '=', 'complete')
      .execute();
    const indexer = new Indexer({
      chain: devnet,
      db,
      pollMs: 10,
      retryMs: 10,
      derivations: [traceDerivation({ reclassifyPerBlock: 1000 })],
    });
    await indexer.start();
    await devnet.produceBlock();
    await indexer.waitFor((await devnet.getMasterchainInfo()).last.seqno, 60_000);
    await indexer.stop();
    const stale = await db
      .selectFrom('traces')
      .select('trace_id')
      .where('state', '=', 'complete')
      .where('classifier_version', '<>', CLASSIFIER_VERSION)
      .execute();
    expect(stale).toEqual([]);
    // The new block may complete traces of its own (the devnet's validators keep sending); the traces that were
    // there before must come back with exactly their actions.
    const known = new Set(before.map((a) => a.trace_id));
    const after = await db
      .selectFrom('actions')
      .select(['trace_id', 'action_id', 'type'])
      .orderBy('trace_id')
      .orderBy('action_id')
      .execute();
    expect(after.filter((a) => known.has(a.trace_id))).toEqual(before);
  }, 60_000);

  it('assembles a trace whose transactions land in different blocks: pending first, complete and classified later; broken without its root', async () => {
    const big = await db
      .selectFrom('traces')
      .selectAll()
      .where('state', '=', 'complete')
      .orderBy('transactions', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(big.transactions).toBeGreaterThan(2);
    const members = await db.selectFrom('trace_transactions').selectAll().where('trace_id', '=', big.trace_id).orderBy('lt').execute();
    const batch = await collectMcBlock(devnet, big.mc_seqno_start, (await readShardTops(db, big.mc_seqno_start - 1))!);
    // Split the block at the trace's second transaction: a prefix in lt order holds every sender before its receivers.
    const cut = BigInt(members[1]!.lt);
    const part = (first: boolean, mcSeqno: number): McBlockBatch => {
      const txs = batch.transactions.filter((t) => BigInt(t.lt) < cut === first);
      const hashes = new Set(txs.map((t) => t.hash));
      return {
        ...batch,
        mcSeqno,
        blocks: first ? batch.blocks : [],
        shardState: first ? batch.shardState : [],
        transactions: txs,
        messages: batch.messages.filter((m) => hashes.has(m.tx_hash)),
        accountStates: first ? batch.accountStates : [],
      };
    };
    const split = await openIndexStore({
      databaseUrl: url,
      dataDir: path.join(dir, `${name}-split`),
      schema: url ? `${schema}_split` : undefined,
    });
    try {
      await split.migrate();
      const sdb = withDomainTables<TracesTables>(split.chain('testnet'));
      const write = async (b: McBlockBatch) =>
        writeMcBlock(sdb, b, await prepareDerivations(sdb, b, [traceDerivation()], { chain: devnet }));
      await write(part(true, batch.mcSeqno));
      const pending = await sdb.selectFrom('traces').selectAll().where('trace_id', '=', big.trace_id).executeTakeFirstOrThrow();
      expect(pending).toMatchObject({
        state: 'pending',
        transactions: 1,
        messages: 0,
        classification_state: 'unclassified',
        classifier_version: null,
      });
      expect(pending.pending_messages).toBeGreaterThan(0);
      expect(await sdb.selectFrom('actions').select('action_id').where('trace_id', '=', big.trace_id).execute()).toEqual([]);

      await write(part(false, batch.mcSeqno + 1));
      const done = await sdb.selectFrom('traces').selectAll().where('trace_id', '=', big.trace_id).executeTakeFirstOrThrow();
      expect(done).toMatchObject({
        state: 'complete',
        pending_messages: 0,
        transactions: big.transactions,
        messages: big.messages,
        classification_state: 'ok',
      });
      expect(done.mc_seqno_start).toBe(batch.mcSeqno);
      expect(done.mc_seqno_end).toBe(batch.mcSeqno + 1);
      const ids = async (d: Kysely<TracesDb>) =>
        await d.selectFrom('actions').select(['action_id', 'type']).where('trace_id', '=', big.trace_id).orderBy('action_id').execute();
      expect(await ids(sdb)).toEqual(await ids(db));
      const joined = await sdb
        .selectFrom('trace_transactions')
        .select('tx_hash')
        .where('trace_id', '=', big.trace_id)
        .orderBy('lt')
        .execute();
      expect(joined.map((j) => j.tx_hash)).toEqual(members.map((m) => m.tx_hash));
    } finally {
      await split.close();
      if (url) await dropSchema(url, `${schema}_split`);
    }

    // The second half alone: its first transaction's sender was never indexed, so its trace is broken, not classified.
    const orphan = await openIndexStore({
      databaseUrl: url,
      dataDir: path.join(dir, `${name}-orphan`),
      schema: url ? `${schema}_orphan` : undefined,
    });
    try {
      await orphan.migrate();
      const odb = withDomainTables<TracesTables>(orphan.chain('testnet'));
      const b = part(false, batch.mcSeqno);
      await writeMcBlock(odb, b, await prepareDerivations(odb, b, [traceDerivation()], { chain: devnet }));
      // Each branch whose sender is missing starts its own broken trace; the rest of the branch joins it.
      const rest = members.slice(1).map((m) => m.tx_hash);
      const joined = await odb.selectFrom('trace_transactions').select(['tx_hash', 'trace_id']).where('tx_hash', 'in', rest).execute();
      expect(joined.map((j) => j.tx_hash).sort()).toEqual([...rest].sort());
      expect(joined.find((j) => j.tx_hash === members[1]!.tx_hash)!.trace_id).toBe(members[1]!.tx_hash);
      const brokenIds = [...new Set(joined.map((j) => j.trace_id))];
      const broken = await odb.selectFrom('traces').selectAll().where('trace_id', 'in', brokenIds).execute();
      expect(broken).toHaveLength(brokenIds.length);
      for (const t of broken)
        expect(t).toMatchObject({ state: 'broken', external_hash: null, classification_state: 'broken', classifier_version: null });
      expect(broken.reduce((n, t) => n + t.transactions, 0)).toBe(rest.length);
      expect(await odb.selectFrom('actions').select('action_id').where('trace_id', 'in', brokenIds).execute()).toEqual([]);
    } finally {
      await orphan.close();
      if (url) await dropSchema(url, `${schema}_orphan`);
    }
  }, 120_000);
});
