/**
 * The dns derivation: `.ton` items recognised by code hash and decoded into dns_entries, kept as of each item's
 * newest state, on the seeded devnet (PGlite, or PostgreSQL when DATABASE_URL is set) and on recorded mainnet items.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Cell } from '@ton/core';
import { createDevnet, type Devnet, type SeedSummary } from '@tongate/devnet';
import { dropSchema, openStore, type ChainDatabase, type Store } from '@tongate/store';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsDerivation, dnsEntryOf } from '../src/derive/dns.js';
import { defaultDerivations, Indexer, type McBlockBatch } from '../src/index.js';

const ACCOUNTS = fileURLToPath(new URL('../../../../shared/fixtures/accounts/', import.meta.url));
const fixture = (file: string) => readFileSync(ACCOUNTS + file, 'utf8').trim();
const expected = JSON.parse(fixture('dns-item/expected.json'));
const raw = (a: { workChain: number; hash: Buffer }) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;

type LatestState = McBlockBatch['latestAccountStates'][number];
const itemState = (account: string, dataFile: string, lt: string): LatestState => {
  const code = Cell.fromBase64(fixture('dns-item/code.boc.b64'));
  const data = Cell.fromBase64(fixture(`dns-item/${dataFile}`));
  return {
    account, hash: 'h', balance: '1', extra_currencies: '{}', account_status: 'active', frozen_hash: null,
    data_hash: data.hash().toString('base64'), code_hash: code.hash().toString('base64'), data_boc: fixture(`dns-item/${dataFile}`),
    code_boc: null, contract_methods: null, last_trans_hash: null, last_trans_lt: lt, timestamp: 0, mc_seqno: 1,
  };
};

describe('dnsEntryOf (recorded mainnet items)', () => {
  it('an item in auction: no owner, the auction, no records', () => {
    const want = expected['data.boc.b64'];
    expect(dnsEntryOf(itemState(want.address, 'data.boc.b64', '5'))).toMatchObject({
      nft_item_address: want.address,
      nft_item_owner: null,
      domain: 'altalavista.ton',
      collection_address: want.decoded.collection.toUpperCase(),
      auction_max_bid_address: want.get_auction_info.max_bid_address,
      auction_max_bid_amount: BigInt(want.get_auction_info.max_bid_amount),
      auction_end_time: want.get_auction_info.auction_end_time,
      dns_wallet: null,
      last_transaction_lt: '5',
    });
  });

  it('a claimed item: its owner and wallet record, no auction', () => {
    const want = expected['data-2.boc.b64'];
    const entry = dnsEntryOf(itemState(want.address, 'data-2.boc.b64', '7'))!;
    expect(entry).toMatchObject({ nft_item_owner: want.decoded.owner.toUpperCase(), domain: `${want.get_domain}.ton`, auction_max_bid_address: null, auction_end_time: null });
    expect(entry.dns_wallet).toMatch(/^0:[0-9A-F]{64}$/);
  });

  it('not an item: other code, no data, or not active', () => {
    const item = itemState('0:' + 'A'.repeat(64), 'data-2.boc.b64', '1');
    expect(dnsEntryOf({ ...item, code_hash: Buffer.alloc(32).toString('base64') })).toBeNull();
    expect(dnsEntryOf({ ...item, data_boc: null })).toBeNull();
    expect(dnsEntryOf({ ...item, account_status: 'frozen' })).toBeNull();
  });
});

describe('dns derivation over the seeded devnet', () => {
  let devnet: Devnet;
  let store: Store;
  let db: Kysely<ChainDatabase>;
  let seed: SeedSummary;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tongate-dns-'));
  const schema = process.env.DATABASE_URL ? `dns_test_${process.pid}_${Date.now().toString(36)}` : undefined;

  beforeAll(async () => {
    devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
    seed = await devnet.seed();
    store = await openStore({ dataDir, databaseUrl: process.env.DATABASE_URL || undefined, schema });
    await store.migrate();
    db = store.chain('mainnet');
    const indexer = new Indexer({ chain: devnet, db, pollMs: 10, retryMs: 10, derivations: defaultDerivations() });
    await indexer.start();
    await indexer.waitFor(seed.lastBlock.seqno, 60_000);
    await indexer.stop();
  }, 120_000);

  afterAll(async () => {
    await store?.close();
    if (schema) await dropSchema(process.env.DATABASE_URL!, schema);
    await devnet?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('holds each seeded domain with its owner and records', async () => {
    for (const item of seed.dns.items) {
      const row = await db.selectFrom('dns_entries').selectAll().where('nft_item_address', '=', raw(item.address)).executeTakeFirstOrThrow();
      const state = await devnet.getAccountState(item.address);
      expect(row).toMatchObject({
        domain: item.domain,
        nft_item_owner: raw(item.owner),
        collection_address: raw(seed.dns.collection),
        dns_wallet: item.wallet ? raw(item.wallet) : null,
        dns_site_adnl: item.siteAdnl,
        dns_storage_bag_id: item.storageBagId,
        dns_next_resolver: item.nextResolver ? raw(item.nextResolver) : null,
        last_transaction_lt: state.lastTransaction!.lt.toString(),
        data_hash: state.data!.hash().toString('base64'),
      });
    }
  });

  it('drops the row of an account that stops being an item', async () => {
    const [item] = seed.dns.items;
    const before = await db.selectFrom('dns_entries').select('nft_item_address').where('nft_item_address', '=', raw(item.address)).execute();
    expect(before).toHaveLength(1);
    const derivation = dnsDerivation();
    const gone = { ...itemState(raw(item.address), 'data-2.boc.b64', '99'), account_status: 'nonexist', code_hash: null, data_boc: null };
    const batch = { latestAccountStates: [gone] } as unknown as McBlockBatch;
    const prepared = await derivation.prepare!(batch, db, { chain: devnet });
    await db.transaction().execute((trx) => derivation.write(trx, batch, prepared, { chain: devnet }));
    const after = await db.selectFrom('dns_entries').select('nft_item_address').where('nft_item_address', '=', raw(item.address)).execute();
    expect(after).toHaveLength(0);
    expect(await db.selectFrom('dns_entries').select('domain').where('nft_item_address', '=', raw(seed.dns.items[1].address)).execute()).toHaveLength(1);
  });
});
