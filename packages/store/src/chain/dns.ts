import type { ColumnType } from 'kysely';

/** int8 / numeric: written as bigint, number or string, read as a decimal string. */
type Int64 = ColumnType<string, bigint | number | string, bigint | number | string>;
type Int64OrNull = ColumnType<string | null, bigint | number | string | null, bigint | number | string | null>;
import type { DomainMigrations } from './index.js';

/**
 * `.ton` DNS items and their TEP-81 records, one row per item, kept as of the item's newest state (the indexer's dns
 * derivation). Addresses are raw `wc:HEX` upper case; ADNL and bag ids are 64 lower-case hex digits, as on the wire.
 */
export interface DnsEntriesTable {
  nft_item_address: string;
  /** Null while the domain is in auction. */
  nft_item_owner: string | null;
  /** With the zone, e.g. `alice.ton`. */
  domain: string;
  collection_address: string | null;
  dns_next_resolver: string | null;
  dns_wallet: string | null;
  dns_site_adnl: string | null;
  dns_storage_bag_id: string | null;
  /** The item's auction, when one runs or has been won but not claimed (`/dns/activeAuctions`). */
  auction_max_bid_address: string | null;
  auction_max_bid_amount: Int64OrNull;
  /** Unix time (uint64 in the item's data). */
  auction_end_time: Int64OrNull;
  last_fill_up_time: Int64;
  last_transaction_lt: Int64;
  code_hash: string;
  data_hash: string;
}

/**
 * Progress of the one pass that re-checks the `.ton` rows an older version wrote without the authenticity rule
 * (dns_entries and dns_auctions, by item address): the indexer removes those that are not genuine items.
 */
export interface DnsRecheckTable {
  id: number;
  cursor: string;
  done: boolean;
}

export interface DnsTables {
  dns_entries: DnsEntriesTable;
  dns_recheck: DnsRecheckTable;
}

export const dnsMigrations: DomainMigrations = (run) => ({
  '0300_dns_entries': {
    async up(db) {
      await run(db, [
        `create table $S.dns_entries (
          nft_item_address text primary key, nft_item_owner text, domain text not null, collection_address text,
          dns_next_resolver text, dns_wallet text, dns_site_adnl text, dns_storage_bag_id text,
          auction_max_bid_address text, auction_max_bid_amount numeric, auction_end_time bigint,
          last_fill_up_time bigint not null, last_transaction_lt bigint not null, code_hash text not null,
          data_hash text not null)`,
        // /dns/records by domain (exact) and by wallet, in its order (length(domain), domain).
        `create index dns_entries_domain on $S.dns_entries (domain)`,
        `create index dns_entries_wallet on $S.dns_entries (dns_wallet, (length(domain)), domain)`,
        // address_book.domain: the shortest domain whose owner points its wallet record at itself.
        `create index dns_entries_self on $S.dns_entries (nft_item_owner, (length(domain)), domain) where nft_item_owner = dns_wallet`,
        `create index dns_entries_bidder on $S.dns_entries (auction_max_bid_address, auction_end_time) where auction_max_bid_address is not null`,
      ]);
    },
  },
  '0301_dns_recheck': {
    async up(db) {
      await run(db, [`create table $S.dns_recheck (id integer primary key check (id = 1), cursor text not null, done boolean not null)`]);
    },
  },
});
