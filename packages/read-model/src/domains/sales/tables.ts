import type { DomainMigrations } from '@tongate/store';
import type { ColumnType } from 'kysely';

/**
 * NFT sales and DNS auctions (migrations 0600–0699): the current state of every getgems sale, getgems auction and
 * Telemint item, and of every `.ton` DNS item while it is in auction. The indexer derives them from the states of
 * the accounts each block touches (salesDerivation, derive.ts).
 */

type Int64 = ColumnType<string, bigint | number | string, bigint | number | string>;
type Json<T> = ColumnType<T, string, string>;

export interface NftSalesTable {
  address: string;
  type: 'getgems_sale' | 'getgems_auction' | 'teleitem';
  nft_address: string | null;
  nft_owner_address: string | null;
  marketplace_address: string | null;
  created_at: number | null;
  last_transaction_lt: Int64;
  code_hash: string;
  data_hash: string;
  /** The `details` object of `/nft/sales` in its wire form. */
  details: Json<Record<string, unknown>>;
  mc_seqno: number;
}

/** A `.ton` item with an auction cell: bidding until `auction_end_time`, won after it until the winner claims it. */
export interface DnsAuctionsTable {
  nft_item_address: string;
  /** With its `.ton` suffix. */
  domain: string;
  max_bid_address: string | null;
  max_bid_amount: Int64;
  auction_end_time: Int64;
  last_fill_up_time: Int64;
  last_transaction_lt: Int64;
  mc_seqno: number;
}

export interface SalesTables {
  nft_sales: NftSalesTable;
  dns_auctions: DnsAuctionsTable;
}

export const salesMigrations: DomainMigrations = (run) => ({
  '0600_sales_tables': {
    async up(db) {
      await run(db, [
        `create table $S.nft_sales (
          address text primary key, type text not null, nft_address text, nft_owner_address text, marketplace_address text,
          created_at integer, last_transaction_lt bigint not null, code_hash text not null, data_hash text not null,
          details jsonb not null, mc_seqno integer not null)`,
        // The sale or auction holding an NFT (NFT items' on_sale).
        `create index nft_sales_nft_address on $S.nft_sales (nft_address)`,
        `create table $S.dns_auctions (
          nft_item_address text primary key, domain text not null, max_bid_address text, max_bid_amount numeric not null,
          auction_end_time bigint not null, last_fill_up_time bigint not null, last_transaction_lt bigint not null,
          mc_seqno integer not null)`,
        // /dns/activeAuctions: one bidder's auctions in item-address order (the cursor's order).
        `create index dns_auctions_bidder on $S.dns_auctions (max_bid_address, nft_item_address)`,
      ]);
    },
  },
});
