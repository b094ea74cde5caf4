/**
 * The dns derivation: genuine `.ton` items (deployed by the network's collection, which the chain's root resolver
 * names) decoded into dns_entries, kept as of each item's newest state, on the seeded devnet (PGlite, or PostgreSQL
 * when DATABASE_URL is set) and on recorded mainnet items; copies of the item code elsewhere are not indexed.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Address, beginCell, Cell, internal, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { TON_DNS_COLLECTION } from '@tongate/contracts';
import { createDevnet, dns, walletTransferBoc, signerFromSeed, type Devnet, type SeedSummary } from '@tongate/devnet';
import { dropSchema, type Store } from '@tongate/store';
import {
  dnsDerivation,
  dnsEntryOf,
  openIndexStore,
  withDomainTables,
  type DnsTables,
  type IndexTables,
  type SalesTables,
} from '@tongate/read-model';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedTonCollection } from '@tongate/read-model';
import { defaultDerivations, Indexer, type McBlockBatch } from '../src/index.js';
import { fixturePath } from '@tongate/testdata';

const ACCOUNTS = `${fixturePath('accounts')}/`;
const fixture = (file: string) => readFileSync(ACCOUNTS + file, 'utf8').trim();
const expected = JSON.parse(fixture('dns-item/expected.json'));
const raw = (a: { workChain: number; hash: Buffer }) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;

type LatestState = McBlockBatch['latestAccountStates'][number];
const itemState = (account: string, dataFile: string, lt: string): LatestState => {
  const code = Cell.fromBase64(fixture('dns-item/code.boc.b64'));
  const data = Cell.fromBase64(fixture(`dns-item/${dataFile}`));
  return {
    account,
    hash: 'h',
    balance: '1',
    extra_currencies: '{}',
    account_status: 'active',
    frozen_hash: null,
    data_hash: data.hash().toString('base64'),
    code_hash: code.hash().toString('base64'),
    data_boc: fixture(`dns-item/${dataFile}`),
    code_boc: fixture('dns-item/code.boc.b64'),
    contract_methods: null,
    last_trans_hash: null,
    last_trans_lt: lt,
    timestamp: 0,
    mc_seqno: 1,
  };
};

const MAINNET_CODE = Cell.fromBase64(fixture('dns-item/code.boc.b64'));
const MAINNET = { address: TON_DNS_COLLECTION, itemCodeHash: MAINNET_CODE.hash(), itemCodeDepth: MAINNET_CODE.depth() };

describe('dnsEntryOf (recorded mainnet items)', () => {
  it('an item in auction: no owner, the auction, no records', () => {
    const want = expected['data.boc.b64'];
    expect(dnsEntryOf(itemState(want.address, 'data.boc.b64', '5'), MAINNET)).toMatchObject({
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
    const entry = dnsEntryOf(itemState(want.address, 'data-2.boc.b64', '7'), MAINNET)!;
    expect(entry).toMatchObject({
      nft_item_owner: want.decoded.owner.toUpperCase(),
      domain: `${want.get_domain}.ton`,
      auction_max_bid_address: null,
      auction_end_time: null,
    });
    expect(entry.dns_wallet).toMatch(/^0:[0-9A-F]{64}$/);
  });

  it('not an item: other code, no data, or not active', () => {
    const item = itemState(expected['data-2.boc.b64'].address, 'data-2.boc.b64', '1');
    expect(dnsEntryOf(item, MAINNET)).not.toBeNull();
    expect(dnsEntryOf({ ...item, code_hash: Buffer.alloc(32).toString('base64') }, MAINNET)).toBeNull();
    expect(dnsEntryOf({ ...item, data_boc: null }, MAINNET)).toBeNull();
    expect(dnsEntryOf({ ...item, account_status: 'frozen' }, MAINNET)).toBeNull();
  });

  it('a fake: the genuine code and data at another address, or under another trusted collection, or none known', () => {
    const want = expected['data-2.boc.b64'];
    expect(dnsEntryOf(itemState('0:' + 'A'.repeat(64), 'data-2.boc.b64', '1'), MAINNET)).toBeNull();
    expect(dnsEntryOf(itemState(expected['data.boc.b64'].address, 'data-2.boc.b64', '1'), MAINNET)).toBeNull();
    expect(
      dnsEntryOf(itemState(want.address, 'data-2.boc.b64', '1'), { ...MAINNET, address: new Address(0, Buffer.alloc(32, 1)) }),
    ).toBeNull();
    expect(dnsEntryOf(itemState(want.address, 'data-2.boc.b64', '1'), { ...MAINNET, itemCodeHash: Buffer.alloc(32) })).toBeNull();
    expect(dnsEntryOf(itemState(want.address, 'data-2.boc.b64', '1'), null)).toBeNull();
  });
});

describe('trustedTonCollection follows config param 4', () => {
  /** A chain whose param 4 and root answers the test sets; counts the root's get-method runs. */
  function fakeChain() {
    const code = Cell.fromBase64(fixture('dns-item/code.boc.b64'));
    const roots = new Map<string, Address>();
    const state = { param4: null as Cell | null, runs: 0 };
    const chain = {
      async getConfigParam(id: number) {
        return id === 4 ? state.param4 : null;
      },
      async runGetMethod(address: Address) {
        state.runs++;
        const collection = roots.get(address.toRawString());
        if (!collection) return { exitCode: -13, stack: [] };
        const record = beginCell().storeUint(0xba93, 16).storeAddress(collection).endCell();
        return {
          exitCode: 0,
          stack: [
            { type: 'int', value: 24n },
            { type: 'cell', cell: record },
          ],
        };
      },
      async getAccountState() {
        return { data: beginCell().storeRef(beginCell().endCell()).storeRef(code).endCell() };
      },
    };
    const setRoot = (root: Address, collection: Address) => {
      roots.set(root.toRawString(), collection);
      state.param4 = beginCell().storeBuffer(root.hash, 32).endCell();
    };
    return { chain: chain as unknown as Devnet, state, setRoot };
  }

  it('asks the root once per param 4 and again when param 4 changes', async () => {
    const { chain, state, setRoot } = fakeChain();
    const [rootA, rootB] = [new Address(-1, Buffer.alloc(32, 0xa)), new Address(-1, Buffer.alloc(32, 0xb))];
    const [collA, collB] = [new Address(0, Buffer.alloc(32, 1)), new Address(0, Buffer.alloc(32, 2))];
    expect(await trustedTonCollection({ chain }, 1)).toBeNull();
    setRoot(rootA, collA);
    expect((await trustedTonCollection({ chain }, 2))!.address.equals(collA)).toBe(true);
    expect((await trustedTonCollection({ chain }, 3))!.address.equals(collA)).toBe(true);
    expect(state.runs).toBe(1);
    setRoot(rootB, collB);
    expect((await trustedTonCollection({ chain }, 4))!.address.equals(collB)).toBe(true);
    expect(state.runs).toBe(2);
    // A root that does not resolve `ton` trusts nothing.
    state.param4 = beginCell().storeBuffer(Buffer.alloc(32, 0xc), 32).endCell();
    expect(await trustedTonCollection({ chain }, 5)).toBeNull();
    // The operator's collection wins without asking the root.
    const runs = state.runs;
    expect((await trustedTonCollection({ chain, tonDnsCollection: collA }, 6))!.address.equals(collA)).toBe(true);
    expect(state.runs).toBe(runs);
  });
});

describe('dns derivation over the seeded devnet', () => {
  let devnet: Devnet;
  let store: Store;
  let db: Kysely<IndexTables<DnsTables & SalesTables>>;
  let seed: SeedSummary;
  let forged: Address;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tongate-dns-'));
  const schema = process.env.DATABASE_URL ? `dns_test_${process.pid}_${Date.now().toString(36)}` : undefined;

  beforeAll(async () => {
    devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
    seed = await devnet.seed();
    forged = await deployForgedItem(devnet, seed);
    store = await openIndexStore({ dataDir, databaseUrl: process.env.DATABASE_URL || undefined, schema });
    await store.migrate();
    // The DNS and sales domains' tables are in the network's schema beside the store's (openIndexStore migrated them).
    db = withDomainTables<DnsTables & SalesTables>(store.chain('mainnet'));
    const indexer = new Indexer({ chain: devnet, db: store.chain('mainnet'), pollMs: 10, retryMs: 10, derivations: defaultDerivations() });
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
      const row = await db
        .selectFrom('dns_entries')
        .selectAll()
        .where('nft_item_address', '=', raw(item.address))
        .executeTakeFirstOrThrow();
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

  it('trusts the collection the root resolver of config param 4 names, with its item code; an override wins', async () => {
    const seqno = seed.lastBlock.seqno;
    const trusted = await trustedTonCollection({ chain: devnet }, seqno);
    expect(trusted!.address.equals(devnet.dns.collection.address)).toBe(true);
    expect(trusted!.itemCodeHash.equals(dns.dnsItemCode().hash())).toBe(true);
    const other = await trustedTonCollection({ chain: devnet, tonDnsCollection: seed.nft.collection }, seqno);
    expect(other!.address.equals(seed.nft.collection)).toBe(true);
  });

  it('does not index a forged item: the genuine code, the collection named, but not deployed by it', async () => {
    const state = await devnet.getAccountState(forged);
    expect(state.status).toBe('active');
    expect(state.code!.hash().equals(dns.dnsItemCode().hash())).toBe(true);
    expect(await db.selectFrom('dns_entries').select('domain').where('nft_item_address', '=', raw(forged)).execute()).toEqual([]);
    expect(await db.selectFrom('dns_auctions').select('domain').where('nft_item_address', '=', raw(forged)).execute()).toEqual([]);
    // The domain it claims is not taken by it either.
    const rows = await db.selectFrom('dns_entries').select('nft_item_address').where('domain', '=', seed.dns.items[0].domain).execute();
    expect(rows.map((r) => r.nft_item_address)).toEqual([raw(seed.dns.items[0].address)]);
  });

  it('removes the forged rows an older version indexed (one pass over dns_entries and dns_auctions), keeps the genuine', async () => {
    const [genuine] = seed.dns.items;
    const row = await db
      .selectFrom('dns_entries')
      .selectAll()
      .where('nft_item_address', '=', raw(genuine.address))
      .executeTakeFirstOrThrow();
    // What the code-hash-only rule left behind: the forged item as a domain and as an auction.
    await db
      .insertInto('dns_entries')
      .values({ ...row, nft_item_address: raw(forged), domain: 'forged-by-old-rule.ton' })
      .execute();
    await db
      .insertInto('dns_auctions')
      .values({
        nft_item_address: raw(forged),
        domain: 'forged-by-old-rule.ton',
        max_bid_address: raw(genuine.owner),
        max_bid_amount: '1',
        auction_end_time: 1,
        last_fill_up_time: 1,
        last_transaction_lt: '1',
        mc_seqno: 1,
      })
      .execute();
    await db.deleteFrom('dns_recheck').execute();
    const derivation = dnsDerivation();
    const batch = { latestAccountStates: [], mcSeqno: seed.lastBlock.seqno } as unknown as McBlockBatch;
    const prepared = await derivation.prepare!(batch, db, { chain: devnet });
    await db.transaction().execute((trx) => derivation.write(trx, batch, prepared, { chain: devnet }));
    expect(await db.selectFrom('dns_entries').select('domain').where('nft_item_address', '=', raw(forged)).execute()).toEqual([]);
    expect(await db.selectFrom('dns_auctions').select('domain').where('nft_item_address', '=', raw(forged)).execute()).toEqual([]);
    expect(await db.selectFrom('dns_entries').select('domain').where('nft_item_address', '=', raw(genuine.address)).execute()).toEqual([
      { domain: genuine.domain },
    ]);
    expect(await db.selectFrom('dns_recheck').select(['done']).execute()).toEqual([{ done: true }]);
    // Done once: a later block does not look again.
    expect((await derivation.prepare!(batch, db, { chain: devnet })) as unknown).toMatchObject({ recheck: null });
  });

  it('drops the row of an account that stops being an item', async () => {
    const [item] = seed.dns.items;
    const before = await db
      .selectFrom('dns_entries')
      .select('nft_item_address')
      .where('nft_item_address', '=', raw(item.address))
      .execute();
    expect(before).toHaveLength(1);
    const derivation = dnsDerivation();
    const gone = { ...itemState(raw(item.address), 'data-2.boc.b64', '99'), account_status: 'nonexist', code_hash: null, data_boc: null };
    const batch = { latestAccountStates: [gone] } as unknown as McBlockBatch;
    const prepared = await derivation.prepare!(batch, db, { chain: devnet });
    await db.transaction().execute((trx) => derivation.write(trx, batch, prepared, { chain: devnet }));
    const after = await db.selectFrom('dns_entries').select('nft_item_address').where('nft_item_address', '=', raw(item.address)).execute();
    expect(after).toHaveLength(0);
    expect(
      await db.selectFrom('dns_entries').select('domain').where('nft_item_address', '=', raw(seed.dns.items[1].address)).execute(),
    ).toHaveLength(1);
  });
});

/**
 * What a forger does: deploys the genuine item code, initialised as owned by the faucet with a wallet record, under
 * the devnet's collection and the same label as a seeded domain, straight from the faucet (not through the collection).
 */
async function deployForgedItem(devnet: Devnet, seed: SeedSummary): Promise<Address> {
  const label = seed.dns.items[0].domain.replace(/\.ton$/, '');
  const faucet = devnet.faucet;
  const item = dns.forgedDnsItemInit({
    collection: devnet.dns.collection.address,
    label,
    owner: faucet.address,
    lastFillUpTime: Math.floor(Date.now() / 1000),
  });
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: faucet.publicKey });
  const seqno = Number(((await devnet.runGetMethod(faucet.address, 'seqno', [])).stack[0] as { value: bigint }).value);
  const boc = await walletTransferBoc(wallet, signerFromSeed(faucet.secretKey), seqno, [
    internal({
      to: item.address,
      value: toNano('1.5'),
      bounce: false,
      init: item.init,
      body: dns.changeDnsRecordBody('wallet', dns.dnsRecord.wallet(faucet.address)),
    }),
  ]);
  await devnet.sendMessage(boc);
  await devnet.settle();
  return item.address;
}
