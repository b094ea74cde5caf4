import type { v3 } from '@tongate/sdk';
import type { ChainDatabase } from '@tongate/store';
import { ApiError, type V3Handlers } from '@tongate/stubs';
import type { Kysely, Selectable } from 'kysely';
import { rawAddress } from '../../address.js';
import { addressBook } from '../../address-book.js';
import type { IndexTables } from '../../index-domain.js';
import { rawAddresses } from '../../params.js';
import { tokenMetadata } from '../tokens/metadata.js';
import { readNftItems } from '../tokens/nfts.js';
import type { DnsAuctionsTable, SalesTables } from './tables.js';

export type SalesOperations = Pick<V3Handlers, 'getNftSales' | 'getDnsActiveAuctions'>;

/** Unix seconds; the `bidding`/`won` split is taken against it. */
export type Clock = () => number;
const systemClock: Clock = () => Math.floor(Date.now() / 1000);

const MAX_SALE_ADDRESSES = 1000;
const RAW_ADDRESS = /^-?[0-9]+:[0-9A-F]{64}$/;

/** The indexed NFT items of a reply, by address (an item the NFT index does not hold is left out: `nft_item` null). */
async function nftItemsByAddress(db: Kysely<ChainDatabase>, addresses: readonly string[]): Promise<Map<string, v3.NftItem>> {
  return new Map((await readNftItems(db, [...new Set(addresses)])).map((item) => [item.address, item]));
}

/** Every raw address a detail object holds (fee, royalty, bidder addresses…), for the address book. */
function detailAddresses(details: Record<string, unknown>): string[] {
  return Object.values(details).filter((v): v is string => typeof v === 'string' && RAW_ADDRESS.test(v));
}

/**
 * The `after` cursor: the last item address of the page, base64url-wrapped with a version tag so that clients treat
 * it as opaque. Auctions are listed in item-address order, and an address never changes, so a page continues exactly
 * after the previous one whatever bids happened in between.
 */
const CURSOR_TAG = 'dns1:';

export function encodeAuctionCursor(itemAddress: string): string {
  return Buffer.from(CURSOR_TAG + itemAddress, 'utf8').toString('base64url');
}

export function decodeAuctionCursor(cursor: string): string {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const address = text.startsWith(CURSOR_TAG) ? text.slice(CURSOR_TAG.length) : '';
  if (!RAW_ADDRESS.test(address)) throw new ApiError(422, `invalid after: '${cursor}' is not a cursor from next_cursor`);
  return address;
}

function auctionReply(row: Selectable<DnsAuctionsTable>, now: number, items: Map<string, v3.NftItem> | null): v3.DnsAuction {
  return {
    nft_item_address: row.nft_item_address,
    domain: row.domain,
    max_bid_address: row.max_bid_address,
    max_bid_amount: row.max_bid_amount,
    auction_end_time: row.auction_end_time,
    last_fill_up_time: row.last_fill_up_time,
    // Won (finished) once the end second has passed, as dnsAuctionState (@tongate/contracts) decides.
    finished: now > Number(row.auction_end_time),
    ...(items ? { nft_item: items.get(row.nft_item_address) ?? null } : {}),
  };
}

export function salesOperations(db: Kysely<IndexTables<SalesTables>>, testnet: boolean, clock: Clock = systemClock): SalesOperations {
  return {
    async getNftSales({ query }) {
      const addresses = rawAddresses(query.address);
      if (addresses.length > MAX_SALE_ADDRESSES) throw new ApiError(422, `invalid address: at most ${MAX_SALE_ADDRESSES} addresses`);
      const rows =
        addresses.length > 0
          ? await db.selectFrom('nft_sales').selectAll().where('address', 'in', addresses).orderBy('address').execute()
          : [];
      const items = await nftItemsByAddress(
        db,
        rows.flatMap((r) => (r.nft_address ? [r.nft_address] : [])),
      );
      const nft_sales: v3.NftSale[] = rows.map((r) => ({
        type: r.type,
        address: r.address,
        ...(r.nft_address ? { nft_address: r.nft_address } : {}),
        nft_owner_address: r.nft_owner_address,
        marketplace_address: r.marketplace_address,
        ...(r.created_at !== null ? { created_at: r.created_at } : {}),
        last_transaction_lt: r.last_transaction_lt,
        code_hash: r.code_hash,
        data_hash: r.data_hash,
        details: r.details,
        nft_item: (r.nft_address && items.get(r.nft_address)) || null,
      }));
      const named = [
        ...rows.flatMap((r) => [r.address, r.nft_address, r.nft_owner_address, r.marketplace_address, ...detailAddresses(r.details)]),
        ...[...items.values()].flatMap((i) => [i.collection_address, i.owner_address, i.real_owner]),
      ];
      const [book, metadata] = await Promise.all([addressBook(db, named, testnet), tokenMetadata(db, named)]);
      return { status: 200, body: { nft_sales, address_book: book, metadata } };
    },

    async getDnsActiveAuctions({ query }) {
      const bidder = rawAddress(query.bidder);
      const after = query.after !== undefined ? decodeAuctionCursor(query.after) : undefined;
      const { limit, offset } = query;
      // The cursor and the offset are two ways to the same page; together they would say two different things.
      if (after !== undefined && offset > 0)
        throw new ApiError(422, 'offset: not together with after (the cursor already says where the page starts)');
      const now = clock();
      let q = db.selectFrom('dns_auctions').selectAll().where('max_bid_address', '=', bidder);
      // Bidding up to and including the end second, won after it (the rule of auctionReply's `finished`).
      if (query.state === 'bidding') q = q.where('auction_end_time', '>=', String(now));
      else if (query.state === 'won') q = q.where('auction_end_time', '<', String(now));
      if (after !== undefined) q = q.where('nft_item_address', '>', after);
      // One row past the page tells whether another page follows.
      const rows = await q
        .orderBy('nft_item_address')
        .limit(limit + 1)
        .offset(offset)
        .execute();
      const page = rows.slice(0, limit);
      const items = query.include_nft_items
        ? await nftItemsByAddress(
            db,
            page.map((r) => r.nft_item_address),
          )
        : null;
      const auctions = page.map((r) => auctionReply(r, now, items));
      const next_cursor = rows.length > limit ? encodeAuctionCursor(page[page.length - 1].nft_item_address) : null;
      const addresses = [
        bidder,
        ...page.map((r) => r.nft_item_address),
        ...[...(items?.values() ?? [])].flatMap((i) => [i.collection_address, i.owner_address, i.real_owner]),
      ];
      const [book, metadata] = await Promise.all([addressBook(db, addresses, testnet), tokenMetadata(db, addresses)]);
      return { status: 200, body: { auctions, next_cursor, address_book: book, metadata } };
    },
  };
}
