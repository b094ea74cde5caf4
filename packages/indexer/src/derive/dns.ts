import { Cell, type Address } from '@ton/core';
import { decodeDnsItemData, TON_DNS_ITEM_CODE_HASH } from '@tongate/contracts';
import type { DnsEntriesTable } from '@tongate/store';
import type { Insertable } from 'kysely';
import type { McBlockBatch } from '../collect.js';
import { rawAddress } from '../rows.js';
import { newestStates } from './account-methods.js';
import type { BlockDerivation } from './index.js';

/**
 * `.ton` DNS items and their records (`dns_entries`), as of each item's newest state: every account whose state the
 * block changed is an item when it runs the `.ton` item code (its data is then decoded: owner, domain, auction,
 * records); an account that was an item and no longer is (destroyed, frozen, other code) loses its row.
 */

const ITEM_CODE_HASH = Buffer.from(TON_DNS_ITEM_CODE_HASH, 'hex').toString('base64');

interface DnsChanges {
  upserts: Insertable<DnsEntriesTable>[];
  /** Accounts changed in the block that are not (or no longer) items. */
  others: string[];
}

const raw = (a: Address | null) => (a ? rawAddress(a.workChain, a.hash) : null);

/** The dns_entries row of an item state; null when the data does not decode as an item (kept out of the index). */
export function dnsEntryOf(state: McBlockBatch['latestAccountStates'][number]): Insertable<DnsEntriesTable> | null {
  if (state.code_hash !== ITEM_CODE_HASH || !state.data_boc || state.account_status !== 'active') return null;
  let item;
  try {
    item = decodeDnsItemData(Cell.fromBase64(state.data_boc));
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
    async prepare(batch) {
      const changes: DnsChanges = { upserts: [], others: [] };
      for (const state of newestStates(batch)) {
        const entry = dnsEntryOf(state);
        if (entry) changes.upserts.push(entry);
        else changes.others.push(state.account);
      }
      return changes;
    },
    async write(trx, _batch, { upserts, others }) {
      for (let i = 0; i < others.length; i += 1000) {
        await trx.deleteFrom('dns_entries').where('nft_item_address', 'in', others.slice(i, i + 1000)).execute();
      }
      for (const row of upserts) {
        const { nft_item_address: _key, ...rest } = row;
        await trx.insertInto('dns_entries').values(row).onConflict((c) => c.column('nft_item_address').doUpdateSet(rest)).execute();
      }
    },
  };
}
