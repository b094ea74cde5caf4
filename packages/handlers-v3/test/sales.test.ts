/**
 * /nft/sales and /dns/activeAuctions over the sales tables: the bidding/won split moves with the clock alone, the
 * cursor pages through a bidder's auctions without a skip or a repeat (bids in between included), and bad input is a
 * 422 naming the parameter. Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dropSchema, type Store } from '@tongate/store';
import {
  decodeAuctionCursor,
  encodeAuctionCursor,
  openIndexStore,
  salesOperations,
  withDomainTables,
  type IndexTables,
  type SalesTables,
} from '@tongate/read-model';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v3Decoders } from '@tongate/stubs';

const databaseUrl = process.env.DATABASE_URL;
const schema = `sales_handlers_${process.pid}`;
const dir = mkdtempSync(path.join(tmpdir(), 'tongate-sales-handlers-'));
let store: Store;
let db: Kysely<IndexTables<SalesTables>>;

const address = (n: number) => `0:${n.toString(16).toUpperCase().padStart(64, '0')}`;
const BIDDER = address(0xb1d);
const OTHER = address(0x07e);
const NOW = 1_800_000_000;
const ctx = { network: 'mainnet' as const, requestId: 't', startedAt: 0 };

interface Body {
  auctions: { nft_item_address: string; domain: string; finished: boolean; max_bid_amount: string; nft_item?: unknown }[];
  next_cursor: string | null;
  address_book: Record<string, unknown>;
}

beforeAll(async () => {
  store = await openIndexStore({ databaseUrl, dataDir: dir, schema: databaseUrl ? schema : undefined });
  await store.migrate();
  // The sales domain's tables are in the network's schema beside the store's (openIndexStore migrated them).
  db = withDomainTables<SalesTables>(store.chain('mainnet'));
  // Seven auctions led by BIDDER (three ended, unclaimed), one led by another address.
  const auction = (n: number, bidder: string, end: number) => ({
    nft_item_address: address(n),
    domain: `item${n}.ton`,
    max_bid_address: bidder,
    max_bid_amount: String(n * 1_000_000_000),
    auction_end_time: end,
    last_fill_up_time: NOW - 86400,
    last_transaction_lt: n,
    mc_seqno: 1,
  });
  await db
    .insertInto('dns_auctions')
    .values([
      ...[1, 2, 3, 4].map((n) => auction(n, BIDDER, NOW + n * 60)),
      ...[5, 6].map((n) => auction(n, BIDDER, NOW - n * 60)),
      auction(7, BIDDER, NOW), // ends this very second: still bidding
      auction(8, OTHER, NOW + 3600),
    ])
    .execute();
  await db
    .insertInto('nft_sales')
    .values({
      address: address(0x5a1e),
      type: 'getgems_sale',
      nft_address: address(0x1),
      nft_owner_address: address(0x5e11),
      marketplace_address: address(0x3a4),
      created_at: NOW - 100,
      last_transaction_lt: 42,
      code_hash: 'a5WmQYucnSNZBF0edVm41UmuDlBvJMqrWPowyPsf64Y=',
      data_hash: 'aOnxPSFUcgGFJgC6QPa2K3vB1AI8zMp2uHcugIXAeQo=',
      details: JSON.stringify({
        is_complete: false,
        full_price: '5000000000',
        marketplace_fee: '250000000',
        royalty_amount: '500000000',
        royalty_address: address(0x40a),
      }),
      mc_seqno: 1,
    })
    .execute();
}, 60_000);

afterAll(async () => {
  await store?.close();
  if (databaseUrl) await dropSchema(databaseUrl, schema);
  rmSync(dir, { recursive: true, force: true });
});

async function auctions(query: Record<string, unknown>, now = NOW, perPage?: number): Promise<Body> {
  const ops = salesOperations(db, false, () => now);
  // Through the generated decoder, as the front door hands requests to handlers.
  const reply = (await ops.getDnsActiveAuctions(
    v3Decoders.getDnsActiveAuctions({ query: { bidder: BIDDER, ...(perPage ? { limit: perPage } : {}), ...query } }, ctx),
  )) as {
    status: number;
    body: Body;
  };
  expect(reply.status).toBe(200);
  return reply.body;
}

describe('/dns/activeAuctions', () => {
  it("lists only the bidder's auctions, split by the clock into bidding and won", async () => {
    const all = await auctions({});
    expect(all.auctions.map((a) => a.nft_item_address)).toEqual([1, 2, 3, 4, 5, 6, 7].map(address));
    expect(all.next_cursor).toBeNull();
    const bidding = await auctions({ state: 'bidding' });
    expect(bidding.auctions.map((a) => a.domain)).toEqual(['item1.ton', 'item2.ton', 'item3.ton', 'item4.ton', 'item7.ton']);
    expect(bidding.auctions.every((a) => !a.finished)).toBe(true);
    const won = await auctions({ state: 'won' });
    expect(won.auctions.map((a) => a.domain)).toEqual(['item5.ton', 'item6.ton']);
    expect(won.auctions.every((a) => a.finished)).toBe(true);
    // Two minutes later, with no transaction at all, items 1 and 7 have been won too; item 2 ends that very second.
    const later = await auctions({ state: 'won' }, NOW + 120);
    expect(later.auctions.map((a) => a.domain)).toEqual(['item1.ton', 'item5.ton', 'item6.ton', 'item7.ton']);
    expect((await auctions({ state: 'won' }, NOW + 121)).auctions.map((a) => a.domain)).toContain('item2.ton');
    expect(all.address_book).toHaveProperty(BIDDER);
    expect(all.address_book).toHaveProperty(address(1));
  });

  it('pages with the cursor (limit 3): no skip, no repeat, even when bids land between pages', async () => {
    const first = await auctions({}, NOW, 3);
    expect(first.auctions.map((a) => a.nft_item_address)).toEqual([1, 2, 3].map(address));
    expect(first.next_cursor).not.toBeNull();
    // A new bid on a listed item and another on a later one do not move the next page.
    await db
      .updateTable('dns_auctions')
      .set({ max_bid_amount: '99000000000', last_transaction_lt: 100 })
      .where('nft_item_address', 'in', [address(2), address(5)])
      .execute();
    const second = await auctions({ after: first.next_cursor }, NOW, 3);
    expect(second.auctions.map((a) => a.nft_item_address)).toEqual([4, 5, 6].map(address));
    expect(second.auctions[1].max_bid_amount).toBe('99000000000');
    const third = await auctions({ after: second.next_cursor }, NOW, 3);
    expect(third.auctions.map((a) => a.nft_item_address)).toEqual([address(7)]);
    expect(third.next_cursor).toBeNull();
    // The cursor is the same whatever the filter: a bidding page continues after it too.
    const biddingAfter = await auctions({ state: 'bidding', after: first.next_cursor });
    expect(biddingAfter.auctions.map((a) => a.nft_item_address)).toEqual([4, 7].map(address));
  });

  it('pages with limit and offset in item-address order; offset and a cursor together are refused', async () => {
    const firstTwo = await auctions({ limit: 2 });
    expect(firstTwo.auctions.map((a) => a.nft_item_address)).toEqual([1, 2].map(address));
    expect(firstTwo.next_cursor).not.toBeNull();
    const next = await auctions({ limit: 2, offset: 2 });
    expect(next.auctions.map((a) => a.nft_item_address)).toEqual([3, 4].map(address));
    const last = await auctions({ limit: 2, offset: 6 });
    expect(last.auctions.map((a) => a.nft_item_address)).toEqual([address(7)]);
    expect(last.next_cursor).toBeNull();
    expect((await auctions({})).auctions).toHaveLength(7);
    await expect(auctions({ offset: 1, after: firstTwo.next_cursor })).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining('offset'),
    });
  });

  it('answers 422 naming the parameter for a bad cursor or bidder', async () => {
    for (const after of ['garbage!', encodeAuctionCursor('not-an-address'), Buffer.from('x').toString('base64url')]) {
      await expect(auctions({ after })).rejects.toMatchObject({
        name: 'ApiError',
        status: 422,
        message: expect.stringContaining('invalid after'),
      });
    }
    expect(() => v3Decoders.getDnsActiveAuctions({ query: { bidder: 'EQnotanaddress' } }, ctx)).toThrow(
      expect.objectContaining({ status: 422, message: expect.stringContaining('bidder') }),
    );
    expect(decodeAuctionCursor(encodeAuctionCursor(address(9)))).toBe(address(9));
  });

  it('embeds nft_item (null for an item the NFT index does not hold) only when asked', async () => {
    expect((await auctions({}, NOW, 1)).auctions[0]).not.toHaveProperty('nft_item');
    expect((await auctions({ include_nft_items: true }, NOW, 1)).auctions[0]).toHaveProperty('nft_item', null);
  });
});

describe('/nft/sales', () => {
  const sales = async (address: string[]) =>
    salesOperations(db, true, () => NOW).getNftSales(v3Decoders.getNftSales({ query: { address } }, ctx)) as Promise<{
      status: number;
      body: { nft_sales: Record<string, unknown>[]; address_book: Record<string, { user_friendly: string }> };
    }>;

  it('answers the sales asked for, with every address of them in the book', async () => {
    const { status, body } = await sales([address(0x5a1e), address(0xdead)]);
    expect(status).toBe(200);
    expect(body.nft_sales).toHaveLength(1);
    expect(body.nft_sales[0]).toMatchObject({
      type: 'getgems_sale',
      address: address(0x5a1e),
      nft_owner_address: address(0x5e11),
      created_at: NOW - 100,
      last_transaction_lt: '42',
      nft_item: null,
    });
    expect(body.nft_sales[0].details).toMatchObject({ full_price: '5000000000', is_complete: false });
    expect(Object.keys(body.address_book).sort()).toEqual([0x1, 0x3a4, 0x40a, 0x5a1e, 0x5e11].map(address).sort());
    expect(body.address_book[address(0x5a1e)].user_friendly).toMatch(/^[k0]Q/); // testnet form
  });

  it('answers 422 for more than 1000 addresses or a bad one', async () => {
    const many = [Array.from({ length: 1001 }, (_, i) => address(i + 1)).join(',')];
    await expect(sales(many)).rejects.toMatchObject({ status: 422, message: expect.stringContaining('at most 1000 addresses') });
    await expect(sales(['0:12'])).rejects.toMatchObject({
      status: 422,
      message: expect.stringMatching(/^address: not a valid TON address/),
    });
  });
});
