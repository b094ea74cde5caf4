/**
 * The sales derivation: the decoding of the recorded mainnet sale, auction and DNS items into rows, and the devnet's
 * seeded sale, auction and DNS auction indexed block by block. Runs on PGlite, and on PostgreSQL when DATABASE_URL
 * is set.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { codeMethodIds, decodeDnsItemData, readNftSale } from '@tongate/contracts';
import { createDevnet, type Devnet, type SeedSummary } from '@tongate/devnet';
import { dropSchema, type Store } from '@tongate/store';
import {
  decodeSalesAccount,
  dnsAuctionRow,
  nftSaleRow,
  openIndexStore,
  salesContractKind,
  withDomainTables,
  type IndexTables,
  type SalesTables,
} from '@tongate/read-model';
import { Address, Cell } from '@ton/core';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Indexer, defaultDerivations } from '../src/index.js';
import { fixturePath } from '@tongate/testdata';

const ACCOUNTS = `${fixturePath('accounts')}/`;
const fixture = (file: string) => Cell.fromBase64(readFileSync(ACCOUNTS + file, 'utf8').trim());
const raw = (a: Address) => a.toRawString().toUpperCase();
const STATE = { code_hash: 'c', data_hash: 'd', last_transaction_lt: '1', mc_seqno: 1 };

describe('recorded mainnet states', () => {
  it('a getgems sale v4 becomes a getgems_sale row with the amounts of its percents', async () => {
    const code = fixture('getgems-sale-v4/code.boc.b64');
    expect(salesContractKind(code.hash().toString('hex'), codeMethodIds(code))).toBe('sale');
    const sale = await readNftSale({ code, data: fixture('getgems-sale-v4/data.boc.b64') });
    const row = nftSaleRow('0:F62A2BE8FA6B2EF1DB103623243C732811F98D037A14F9943FC967A36CDF6F5E', sale!, STATE);
    expect(row).toMatchObject({
      type: 'getgems_sale',
      nft_address: '0:2BEC4A9921BEC898153BC77079E33BA4E5A80B888D687071004EA8F41FDB8702',
      nft_owner_address: '0:FE0EE3565678799A4C93D85F00316521B4DD0268F78E80F79965667732B34802',
      marketplace_address: '0:584EE61B2DFF0837116D0FCB5078D93964BCBE9C05FD6A141B1BFCA5D6A43E18',
      created_at: 1730477278,
    });
    expect(JSON.parse(row.details as string)).toEqual({
      is_complete: true,
      full_price: '0',
      marketplace_fee: '0',
      royalty_amount: '0',
      marketplace_fee_address: '0:C3BB1C7BB1ADC3B76184F396B4B081E9E065686BB38A6C06A77E8DDCA3D1FE87',
      royalty_address: '0:E9C57CEF27D6F2BEE8E6B64F66402F327B9A12068C231D83BA13EB2F16820D37',
    });
  });

  it('a getgems auction becomes a getgems_auction row', async () => {
    const code = fixture('getgems-auction/code.boc.b64');
    expect(salesContractKind(code.hash().toString('hex'), codeMethodIds(code))).toBe('sale');
    const sale = await readNftSale({ code, data: fixture('getgems-auction/data.boc.b64') });
    const row = nftSaleRow('0:6C912C30DC3642D4F4ADD23C24485312AA351A804FE5294DFCA11F83E849D10D', sale!, STATE);
    expect(row).toMatchObject({
      type: 'getgems_auction',
      nft_owner_address: '0:047EFBB81020160D28464124271660D1565DAAD67FA6F984A4F4C116586F5968',
      created_at: 1677149986,
    });
    const details = JSON.parse(row.details as string);
    expect(details).toMatchObject({
      end_flag: false,
      end_time: 1677322785,
      last_bid: '0',
      min_step: 1000000000,
      mp_fee_factor: 5,
      mp_fee_base: 100,
      royalty_fee_factor: 10,
      min_bid: '4400000000',
      is_canceled: false,
    });
    expect(details).not.toHaveProperty('last_member'); // no bid yet
  });

  it('a DNS item in auction becomes a dns_auctions row; a claimed one none', () => {
    const code = fixture('dns-item/code.boc.b64');
    expect(salesContractKind(code.hash().toString('hex'), codeMethodIds(code))).toBe('dns_item');
    const row = dnsAuctionRow(
      '0:CCE531B1C8049F02EB2EDED04343A14C3FB34D4A4C902FE1D20FB335659584C6',
      decodeDnsItemData(fixture('dns-item/data.boc.b64')),
      STATE,
    );
    expect(row).toMatchObject({
      domain: 'altalavista.ton',
      max_bid_address: '0:39C18522F5973D49CC1A86F7A7EB9F7A309B2F45F056F17A2336AA5EE4537F44',
      max_bid_amount: '3832306890',
      auction_end_time: 1682825533,
      last_fill_up_time: 1682671633,
    });
    expect(dnsAuctionRow('0:A1', decodeDnsItemData(fixture('dns-item/data-2.boc.b64')), STATE)).toBeNull();
  });

  it('a Telemint item becomes a teleitem row, its own NFT with its owner and auction; a wallet is no sale contract', async () => {
    const code = fixture('telemint-item/code.boc.b64');
    const data = fixture('telemint-item/data.boc.b64');
    expect(salesContractKind(code.hash().toString('hex'), codeMethodIds(code))).toBe('sale');
    const address = '0:542462B50B9698E2265BEAEE3FECE4CBCEC3887270F47547875CC33438DEDD73';
    const latest = {
      account: address,
      code_boc: code.toBoc().toString('base64'),
      data_boc: data.toBoc().toString('base64'),
      code_hash: code.hash().toString('base64'),
      data_hash: data.hash().toString('base64'),
      account_status: 'active',
      contract_methods: JSON.stringify([...codeMethodIds(code)]),
      balance: '1000000000',
      last_trans_lt: '5',
    };
    const decoded = await decodeSalesAccount(latest as never, { mcSeqno: 3, genUtime: 1683000000 } as never);
    expect(decoded!.sale).toMatchObject({
      type: 'teleitem',
      nft_address: address,
      created_at: null,
      last_transaction_lt: '5',
      mc_seqno: 3,
    });
    const details = JSON.parse(decoded!.sale!.details as string);
    // An auction the owner started, with no bid yet: the owner is its beneficiary.
    expect(details).toMatchObject({
      token_name: 'yoganews',
      bid: '0',
      min_bid: '80000000000',
      end_time: 1683280182,
      duration: '604800',
      royalty_numerator: 5,
      royalty_denominator: 100,
    });
    expect(decoded!.sale!.nft_owner_address).toBe(details.beneficiary_address);
    expect(salesContractKind('00'.repeat(32), new Set())).toBeNull();
  });
});

describe('devnet, indexed', () => {
  const databaseUrl = process.env.DATABASE_URL;
  const schema = `sales_${process.pid}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tongate-sales-'));
  let devnet: Devnet;
  let store: Store;
  let db: Kysely<IndexTables<SalesTables>>;
  let seed: SeedSummary;

  beforeAll(async () => {
    devnet = await createDevnet({ network: 'testnet', blockIntervalMs: 0 });
    seed = await devnet.seed();
    store = await openIndexStore({ databaseUrl, dataDir, schema: databaseUrl ? schema : undefined });
    await store.migrate();
    // The sales domain's tables are in the network's schema beside the store's (openIndexStore migrated them).
    db = withDomainTables<SalesTables>(store.chain('testnet'));
    const indexer = new Indexer({ chain: devnet, db: store.chain('testnet'), pollMs: 10, derivations: defaultDerivations() });
    await indexer.start();
    await indexer.waitFor((await devnet.getMasterchainInfo()).last.seqno, 60_000);
    await indexer.stop();
  }, 120_000);

  afterAll(async () => {
    await store?.close();
    await devnet?.close();
    if (databaseUrl) await dropSchema(databaseUrl, schema);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the sale and the auction (with its bid) current', async () => {
    const rows = await db
      .selectFrom('nft_sales')
      .selectAll()
      .where('address', 'in', [raw(seed.sales.sale.address), raw(seed.sales.auction.address)])
      .orderBy('type', 'desc')
      .execute();
    expect(rows.map((r) => r.type)).toEqual(['getgems_sale', 'getgems_auction']);
    const [sale, auction] = rows;
    expect(sale).toMatchObject({ nft_address: raw(seed.sales.sale.nft), nft_owner_address: raw(seed.sales.sale.seller) });
    expect(sale.details).toMatchObject({ is_complete: false, full_price: seed.sales.sale.fullPrice.toString() });
    expect(auction).toMatchObject({ nft_address: raw(seed.sales.auction.nft), nft_owner_address: raw(seed.sales.auction.seller) });
    expect(auction.details).toMatchObject({
      end_flag: false,
      last_bid: seed.sales.auction.bid.toString(),
      last_member: raw(seed.sales.auction.bidder),
    });
    // The row follows the contract's latest state.
    const latest = await db
      .selectFrom('latest_account_states')
      .select(['last_trans_lt', 'data_hash'])
      .where('account', '=', auction.address)
      .executeTakeFirstOrThrow();
    expect([auction.last_transaction_lt, auction.data_hash]).toEqual([latest.last_trans_lt, latest.data_hash]);
  });

  it('keeps the DNS auction with its leading bidder', async () => {
    const row = await db
      .selectFrom('dns_auctions')
      .selectAll()
      .where('nft_item_address', '=', raw(seed.sales.dns.item))
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      domain: `${seed.sales.dns.domain}.ton`,
      max_bid_address: raw(seed.sales.dns.bidder),
      max_bid_amount: seed.sales.dns.bid.toString(),
    });
    expect(Number(row.auction_end_time)).toBeGreaterThan(Math.floor(Date.now() / 1000));
  });
});
