import type { DomainMigrations } from '@tongate/store';
import type { ColumnType, Generated } from 'kysely';

/**
 * Jettons (TEP-74) and NFTs (TEP-62/64/66): the contracts as their get-methods describe them at their last state
 * change, the transfers and burns their transactions carried, and the off-chain metadata the fetcher cached.
 * Addresses are raw upper-case `wc:HEX`, hashes padded base64, amounts numeric (read back as decimal strings). An
 * event's trace is the one its transaction belongs to (trace_transactions), looked up when it is read.
 * NFT tables are generic: DNS items and other NFT-compatible contracts are NFT items too.
 */

type Int64 = ColumnType<string, bigint | number | string, bigint | number | string>;
type Json<T> = ColumnType<T, string, string>;

export interface JettonMastersTable {
  address: string;
  total_supply: Int64;
  mintable: boolean;
  admin_address: string | null;
  /** TEP-64 content: on-chain fields, or `{uri}` for off-chain content; null when unreadable. */
  jetton_content: Json<Record<string, string> | null> | null;
  jetton_wallet_code_hash: string;
  code_hash: string;
  data_hash: string;
  last_transaction_lt: Int64;
}

export interface JettonWalletsTable {
  address: string;
  balance: Int64;
  owner: string;
  jetton: string;
  last_transaction_lt: Int64;
  code_hash: string | null;
  data_hash: string | null;
}

/** Columns of a token transfer or burn's transaction. */
interface TokenEventColumns {
  tx_hash: string;
  tx_lt: Int64;
  tx_now: number;
  tx_aborted: boolean;
  mc_seqno: number;
  query_id: Int64;
}

export interface JettonTransfersTable extends TokenEventColumns {
  amount: Int64;
  /** The owner that sent the jettons (the transfer's sender). */
  source: string | null;
  /** The owner they go to (the address in the body). */
  destination: string | null;
  jetton_wallet_address: string;
  jetton_master_address: string;
  response_destination: string | null;
  /** Base64 BOCs. */
  custom_payload: string | null;
  forward_ton_amount: Int64 | null;
  forward_payload: string | null;
}

export interface JettonBurnsTable extends TokenEventColumns {
  /** The owner that asked for the burn (the request's sender). */
  owner: string;
  jetton_wallet_address: string;
  jetton_master_address: string;
  amount: Int64;
  response_destination: string | null;
  custom_payload: string | null;
}

export interface NftCollectionsTable {
  address: string;
  next_item_index: Int64;
  owner_address: string | null;
  collection_content: Json<Record<string, string> | null> | null;
  last_transaction_lt: Int64;
  code_hash: string;
  data_hash: string;
}

export interface NftItemsTable {
  address: string;
  init: boolean;
  index: Int64;
  collection_address: string | null;
  owner_address: string | null;
  /** The full content (composed by the collection) as tokenContentJson gives it. */
  content: Json<Record<string, string> | null> | null;
  last_transaction_lt: Int64;
  code_hash: string;
  data_hash: string;
  /** The seller while the item sits in a getgems sale or auction contract (from the sale's state); null otherwise. */
  real_owner: string | null;
}

export interface NftTransfersTable extends TokenEventColumns {
  nft_item_address: string;
  nft_item_index: Int64 | null;
  nft_collection_address: string | null;
  old_owner: string | null;
  new_owner: string | null;
  response_destination: string | null;
  custom_payload: string | null;
  forward_amount: Int64 | null;
  forward_payload: string | null;
}

/** Off-chain TEP-64 metadata fetched from a token's content URI, cached until `expires_at` (unix seconds). */
export interface AddressMetadataTable {
  address: string;
  /** nft_items | nft_collections | jetton_masters */
  type: string;
  /** The URI it was fetched from: a content change makes the entry stale. */
  uri: string;
  /** False when the fetch failed or the document was not TEP-64 JSON (`error` says why). */
  valid: boolean;
  /**
   * The outbound guard did not allow the URI's destination (a private, loopback or otherwise non-public address), so
   * nothing was fetched: the token's metadata is not indexed, although the entry is kept to pace the retries.
   */
  refused: Generated<boolean>;
  name: string | null;
  symbol: string | null;
  description: string | null;
  image: string | null;
  extra: Json<Record<string, unknown> | null> | null;
  error: string | null;
  updated_at: number;
  expires_at: number;
}

/**
 * One row (id 1): how far the tokens derivation has looked through accounts indexed before it existed (an index
 * built by an older version): each block looks at a page of them after `cursor`, until `done`.
 */
export interface TokensBackfillTable {
  id: number;
  cursor: string;
  done: boolean;
}

export interface TokenTables {
  tokens_backfill: TokensBackfillTable;
  jetton_masters: JettonMastersTable;
  jetton_wallets: JettonWalletsTable;
  jetton_transfers: JettonTransfersTable;
  jetton_burns: JettonBurnsTable;
  nft_collections: NftCollectionsTable;
  nft_items: NftItemsTable;
  nft_transfers: NftTransfersTable;
  address_metadata: AddressMetadataTable;
}

const EVENT_COLUMNS = `tx_hash text primary key, tx_lt bigint not null, tx_now integer not null, tx_aborted boolean not null,
  mc_seqno integer not null, query_id numeric not null`;

export const tokenMigrations: DomainMigrations = (run) => ({
  '0200_tokens_tables': {
    async up(db) {
      await run(db, [
        `create table $S.jetton_masters (
          address text primary key, total_supply numeric not null, mintable boolean not null, admin_address text,
          jetton_content jsonb, jetton_wallet_code_hash text not null, code_hash text not null, data_hash text not null,
          last_transaction_lt bigint not null)`,
        `create index jetton_masters_admin on $S.jetton_masters (admin_address, address)`,
        `create table $S.jetton_wallets (
          address text primary key, balance numeric not null, owner text not null, jetton text not null,
          last_transaction_lt bigint not null, code_hash text, data_hash text)`,
        `create index jetton_wallets_balance on $S.jetton_wallets (balance, address)`,
        `create index jetton_wallets_owner on $S.jetton_wallets (owner, balance, address)`,
        `create index jetton_wallets_jetton on $S.jetton_wallets (jetton, balance, address)`,
        `create table $S.jetton_transfers (${EVENT_COLUMNS}, amount numeric not null, source text, destination text,
          jetton_wallet_address text not null, jetton_master_address text not null, response_destination text,
          custom_payload text, forward_ton_amount numeric, forward_payload text)`,
        `create index jetton_transfers_lt on $S.jetton_transfers (tx_lt, tx_hash)`,
        `create index jetton_transfers_source on $S.jetton_transfers (source, tx_lt, tx_hash)`,
        `create index jetton_transfers_destination on $S.jetton_transfers (destination, tx_lt, tx_hash)`,
        `create index jetton_transfers_wallet on $S.jetton_transfers (jetton_wallet_address, tx_lt, tx_hash)`,
        `create index jetton_transfers_master on $S.jetton_transfers (jetton_master_address, tx_lt, tx_hash)`,
        `create table $S.jetton_burns (${EVENT_COLUMNS}, owner text not null, jetton_wallet_address text not null,
          jetton_master_address text not null, amount numeric not null, response_destination text, custom_payload text)`,
        `create index jetton_burns_lt on $S.jetton_burns (tx_lt, tx_hash)`,
        `create index jetton_burns_owner on $S.jetton_burns (owner, tx_lt, tx_hash)`,
        `create index jetton_burns_wallet on $S.jetton_burns (jetton_wallet_address, tx_lt, tx_hash)`,
        `create index jetton_burns_master on $S.jetton_burns (jetton_master_address, tx_lt, tx_hash)`,
        `create table $S.nft_collections (
          address text primary key, next_item_index numeric not null, owner_address text, collection_content jsonb,
          last_transaction_lt bigint not null, code_hash text not null, data_hash text not null)`,
        `create index nft_collections_owner on $S.nft_collections (owner_address, address)`,
        `create table $S.nft_items (
          address text primary key, init boolean not null, index numeric not null, collection_address text,
          owner_address text, content jsonb, last_transaction_lt bigint not null, code_hash text not null,
          data_hash text not null, real_owner text)`,
        `create index nft_items_collection on $S.nft_items (collection_address, index, address)`,
        `create index nft_items_owner on $S.nft_items (owner_address, collection_address, index, address)`,
        `create index nft_items_real_owner on $S.nft_items (real_owner, collection_address, index, address) where real_owner is not null`,
        `create index nft_items_last_lt on $S.nft_items (last_transaction_lt, address)`,
        `create table $S.nft_transfers (${EVENT_COLUMNS}, nft_item_address text not null, nft_item_index numeric,
          nft_collection_address text, old_owner text, new_owner text, response_destination text, custom_payload text,
          forward_amount numeric, forward_payload text)`,
        `create index nft_transfers_lt on $S.nft_transfers (tx_lt, tx_hash)`,
        `create index nft_transfers_item on $S.nft_transfers (nft_item_address, tx_lt, tx_hash)`,
        `create index nft_transfers_collection on $S.nft_transfers (nft_collection_address, tx_lt, tx_hash)`,
        `create index nft_transfers_old_owner on $S.nft_transfers (old_owner, tx_lt, tx_hash)`,
        `create index nft_transfers_new_owner on $S.nft_transfers (new_owner, tx_lt, tx_hash)`,
        `create table $S.address_metadata (
          address text not null, type text not null, uri text not null, valid boolean not null, name text, symbol text,
          description text, image text, extra jsonb, error text, updated_at integer not null, expires_at integer not null,
          primary key (address, type))`,
        `create index address_metadata_expires on $S.address_metadata (expires_at)`,
        `create table $S.tokens_backfill (id integer primary key check (id = 1), cursor text not null, done boolean not null)`,
      ]);
    },
  },
  '0201_address_metadata_refused': {
    async up(db) {
      await run(db, [`alter table $S.address_metadata add column refused boolean not null default false`]);
    },
  },
});
