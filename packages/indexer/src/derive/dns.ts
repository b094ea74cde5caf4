import { Address, Cell } from '@ton/core';
import { decodeDnsItemData, isGenuineDnsItem, type TrustedDnsCollection } from '@tongate/contracts';
import type { ChainDatabase, DnsEntriesTable } from '@tongate/store';
import type { Insertable, Kysely } from 'kysely';
import type { McBlockBatch } from '../collect.js';
import { rawAddress, trustedTonCollection } from '@tongate/read-model';
import { newestStates } from '@tongate/read-model';
import type { BlockDerivation } from './index.js';

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

export function dnsDerivation(): BlockDerivation<DnsChanges> {
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
async function recheckPage(db: Kysely<ChainDatabase>, trusted: TrustedDnsCollection, inBatch: Set<string>): Promise<DnsChanges['recheck']> {
  const progress = await db.selectFrom('dns_recheck').select(['cursor', 'done']).where('id', '=', 1).executeTakeFirst();
  if (progress?.done) return null;
  const cursor = progress?.cursor ?? '';
  const items = db
    .selectFrom('dns_entries')
    .select('nft_item_address as account')
    .where('nft_item_address', '>', cursor)
    .union(db.selectFrom('dns_auctions').select('nft_item_address as account').where('nft_item_address', '>', cursor));
  const page = await db
    .selectFrom(items.as('items'))
    .leftJoin('latest_account_states', 'latest_account_states.account', 'items.account')
    .select(['items.account', 'latest_account_states.code_hash', 'latest_account_states.data_boc', 'latest_account_states.account_status'])
    .orderBy('items.account')
    .limit(RECHECK_PAGE)
    .execute();
  const refused: string[] = [];
  for (const row of page) {
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
  return { refused, cursor: page.at(-1)?.account ?? cursor, done: page.length < RECHECK_PAGE };
}
