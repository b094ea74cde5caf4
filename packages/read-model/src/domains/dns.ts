/**
 * The DNS domain: `.ton` DNS items and their TEP-81 records (`GET /api/v3/dns/records`), its tables, the derivation
 * that fills them and the operation that reads them, and the address book's domain of an account (domainsQuery).
 */
import { Address, Cell } from '@ton/core';
import { decodeDnsItemData, isGenuineDnsItem, type TrustedDnsCollection } from '@tongate/contracts';
import type { v3 } from '@tongate/sdk';
import type { ChainDatabase, DomainMigrations } from '@tongate/store';
import { ApiError, type V3Handlers } from '@tongate/stubs';
import { sql, type ColumnType, type Insertable, type Kysely, type SelectQueryBuilder } from 'kysely';
import { rawAddress } from '../address.js';
import { addressBook, anyOf } from '../address-book.js';
import { newestStates, type BlockDerivation, type McBlockBatch } from '../block.js';
import { trustedTonCollection } from '../dns-trust.js';
import { indexDomain, withDomainTables, type IndexTables } from '../index-domain.js';
import { page } from '../params.js';
import type { SalesTables } from './sales/tables.js';

/** int8 / numeric: written as bigint, number or string, read as a decimal string. */
type Int64 = ColumnType<string, bigint | number | string, bigint | number | string>;
type Int64OrNull = ColumnType<string | null, bigint | number | string | null, bigint | number | string | null>;

/**
 * `.ton` DNS items and their TEP-81 records, one row per item, kept as of the item's newest state (dnsDerivation).
 * Addresses are raw `wc:HEX` upper case; ADNL and bag ids are 64 lower-case hex digits, as on the wire.
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
 * (dns_entries and dns_auctions, by item address): dnsDerivation removes those that are not genuine items.
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

/**
 * The address book's domain of each account: one per address (the shortest, then the first by name), whatever number
 * of domains it owns, among those whose owner points its wallet record at itself.
 */
export function domainsQuery(db: Kysely<ChainDatabase>, accounts: readonly string[] | SelectQueryBuilder<any, any, { account: string }>) {
  return withDomainTables<DnsTables>(db)
    .selectFrom('dns_entries')
    .distinctOn('dns_wallet')
    .select(['dns_wallet', 'domain'])
    .where('dns_wallet', '=', anyOf(accounts))
    .whereRef('nft_item_owner', '=', 'dns_wallet')
    .orderBy('dns_wallet')
    .orderBy(sql`length(domain)`)
    .orderBy('domain');
}

/**
 * `.ton` DNS items and their records (`dns_entries`), as of each item's newest state: every account whose state the
 * block changed is an item when it is a genuine item of the network's `.ton` collection (the read model's dns-trust.ts: it runs the
 * collection's item code and its address is the hash of the collection's state init for it). Its data is decoded:
 * owner, domain, auction, records. An account that was an item and no longer is (destroyed, frozen, other code), or
 * that never was a genuine one, has no row.
 */

interface DnsChanges {
  upserts: Insertable<DnsEntriesTable>[];
  /** Accounts changed in the block that are not (or no longer) items. */
  others: string[];
  /** Rows of an older version's index found not genuine (dns_entries and dns_auctions), and the pass's progress. */
  recheck: { refused: string[]; cursor: string; done: boolean } | null;
}

/** Items re-checked per block while the pass over an older index runs. */
const RECHECK_PAGE = 500;

const raw = (a: Address | null) => (a ? rawAddress(a.workChain, a.hash) : null);

type LatestState = McBlockBatch['latestAccountStates'][number];

/**
 * The dns_entries row of an item state; null when it is not a genuine item of `trusted` (null: none known, so nothing
 * is trusted) or its data does not decode as an item (kept out of the index).
 */
export function dnsEntryOf(state: LatestState, trusted: TrustedDnsCollection | null): Insertable<DnsEntriesTable> | null {
  if (!trusted || state.account_status !== 'active' || !state.code_hash || !state.data_boc) return null;
  if (state.code_hash !== trusted.itemCodeHash.toString('base64')) return null;
  let item;
  try {
    const data = Cell.fromBase64(state.data_boc);
    if (!isGenuineDnsItem({ address: Address.parseRaw(state.account), codeHash: Buffer.from(state.code_hash, 'base64'), data }, trusted))
      return null;
    item = decodeDnsItemData(data);
  } catch {
    return null;
  }
  return {
    nft_item_address: state.account,
    nft_item_owner: raw(item.owner),
    domain: `${item.domain}.ton`,
    collection_address: raw(item.collection),
    dns_next_resolver: raw(item.records.nextResolver),
    dns_wallet: raw(item.records.wallet),
    dns_site_adnl: item.records.siteAdnl,
    dns_storage_bag_id: item.records.storageBagId,
    auction_max_bid_address: raw(item.auction?.maxBidAddress ?? null),
    auction_max_bid_amount: item.auction ? item.auction.maxBidAmount : null,
    auction_end_time: item.auction ? item.auction.auctionEndTime : null,
    last_fill_up_time: item.lastFillUpTime,
    last_transaction_lt: state.last_trans_lt ?? '0',
    code_hash: state.code_hash,
    data_hash: state.data_hash!,
  };
}

/**
 * The tables the derivation reads and writes: its own, and the sales domain's `dns_auctions`, whose rows of items
 * found not genuine the recheck pass removes with their `dns_entries` rows.
 */
type DnsDerivationTables = DnsTables & SalesTables;

export function dnsDerivation(): BlockDerivation<DnsChanges, IndexTables<DnsDerivationTables>> {
  return {
    name: 'dns',
    async prepare(batch, db, ctx) {
      const changes: DnsChanges = { upserts: [], others: [], recheck: null };
      const trusted = await trustedTonCollection(ctx, batch.mcSeqno);
      const states = newestStates(batch);
      for (const state of states) {
        const entry = dnsEntryOf(state, trusted);
        if (entry) changes.upserts.push(entry);
        else changes.others.push(state.account);
      }
      if (trusted) changes.recheck = await recheckPage(db, trusted, new Set(states.map((s) => s.account)));
      return changes;
    },
    async write(trx, _batch, { upserts, others, recheck }) {
      for (let i = 0; i < others.length; i += 1000) {
        await trx
          .deleteFrom('dns_entries')
          .where('nft_item_address', 'in', others.slice(i, i + 1000))
          .execute();
      }
      if (recheck) {
        if (recheck.refused.length > 0) {
          await trx.deleteFrom('dns_entries').where('nft_item_address', 'in', recheck.refused).execute();
          await trx.deleteFrom('dns_auctions').where('nft_item_address', 'in', recheck.refused).execute();
        }
        const { cursor, done } = recheck;
        await trx
          .insertInto('dns_recheck')
          .values({ id: 1, cursor, done })
          .onConflict((oc) => oc.column('id').doUpdateSet({ cursor, done }))
          .execute();
      }
      for (const row of upserts) {
        const { nft_item_address: _key, ...rest } = row;
        await trx
          .insertInto('dns_entries')
          .values(row)
          .onConflict((c) => c.column('nft_item_address').doUpdateSet(rest))
          .execute();
      }
    },
  };
}

/**
 * The next page of the one pass over `.ton` rows an older version wrote (it trusted the item code alone): each item
 * of dns_entries or dns_auctions is checked against its latest state, and those that are not genuine are refused.
 * Items the block itself touches are left to the block. On an index built with the rule the pass finds only genuine
 * rows and ends at once.
 */
async function recheckPage(
  db: Kysely<IndexTables<DnsDerivationTables>>,
  trusted: TrustedDnsCollection,
  inBatch: Set<string>,
): Promise<DnsChanges['recheck']> {
  const progress = await db.selectFrom('dns_recheck').select(['cursor', 'done']).where('id', '=', 1).executeTakeFirst();
  if (progress?.done) return null;
  const cursor = progress?.cursor ?? '';
  const items = db
    .selectFrom('dns_entries')
    .select('nft_item_address as account')
    .where('nft_item_address', '>', cursor)
    .union(db.selectFrom('dns_auctions').select('nft_item_address as account').where('nft_item_address', '>', cursor));
  const checked = await db
    .selectFrom(items.as('items'))
    .leftJoin('latest_account_states', 'latest_account_states.account', 'items.account')
    .select(['items.account', 'latest_account_states.code_hash', 'latest_account_states.data_boc', 'latest_account_states.account_status'])
    .orderBy('items.account')
    .limit(RECHECK_PAGE)
    .execute();
  const refused: string[] = [];
  for (const row of checked) {
    if (inBatch.has(row.account)) continue;
    let genuine = false;
    try {
      genuine =
        row.account_status === 'active' &&
        !!row.code_hash &&
        !!row.data_boc &&
        isGenuineDnsItem(
          { address: Address.parseRaw(row.account), codeHash: Buffer.from(row.code_hash, 'base64'), data: Cell.fromBase64(row.data_boc) },
          trusted,
        );
    } catch {
      genuine = false;
    }
    if (!genuine) refused.push(row.account);
  }
  return { refused, cursor: checked.at(-1)?.account ?? cursor, done: checked.length < RECHECK_PAGE };
}

export type DnsOperations = Pick<V3Handlers, 'getDnsRecords'>;

/** `.ton` DNS records from `dns_entries` (dnsDerivation's), by wallet record or by domain. */
export function dnsOperations(db: Kysely<IndexTables<DnsTables>>, testnet: boolean): DnsOperations {
  return {
    async getDnsRecords({ query }) {
      const { limit, offset } = page(query);
      const wallet = query.wallet !== undefined ? rawAddress(query.wallet) : undefined;
      const domain = query.domain;
      if ((wallet === undefined) === (domain === undefined)) throw new ApiError(422, 'exactly one of wallet, domain must be given');
      let q = db.selectFrom('dns_entries').selectAll();
      q = wallet !== undefined ? q.where('dns_wallet', '=', wallet) : q.where('domain', '=', domain!);
      const rows = await q
        .orderBy(sql`length(domain)`)
        .orderBy('domain')
        .orderBy('nft_item_address')
        .limit(limit)
        .offset(offset)
        .execute();
      const records: v3.DnsRecord[] = rows.map((r) => ({
        nft_item_address: r.nft_item_address,
        nft_item_owner: r.nft_item_owner,
        domain: r.domain,
        dns_next_resolver: r.dns_next_resolver,
        dns_wallet: r.dns_wallet,
        dns_site_adnl: r.dns_site_adnl,
        dns_storage_bag_id: r.dns_storage_bag_id,
      }));
      const addresses = rows.flatMap((r) => [r.nft_item_address, r.nft_item_owner, r.dns_wallet, r.dns_next_resolver]);
      return { status: 200, body: { records, address_book: await addressBook(db, addresses, testnet) } };
    },
  };
}

export const dnsDomain = indexDomain<DnsTables>()({
  name: 'dns',
  migrations: dnsMigrations,
  derivation: dnsDerivation,
  operations: dnsOperations,
});
